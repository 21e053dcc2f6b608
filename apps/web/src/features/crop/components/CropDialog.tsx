import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, RotateLeftOutlined } from '@ant-design/icons';
import { MSG } from '@portal/contract/messages';
import { toleranceText } from '@portal/contract/rules';
import { App, Button, Flex, Modal, Slider, Spin, Typography, theme } from 'antd';
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { cropImage, CropFailed, type CropResult } from '../api/crop-image.ts';
import {
  BOUNDARY,
  boundaryFor,
  cropDpi,
  degreesOf,
  fitZoom,
  initialRect,
  initialZoom,
  moveRect,
  predictCrop,
  requestRect,
  resizeRect,
  rotateLeft,
  turned,
  type Corner,
  type CropPrediction,
  type Rect,
  type Standard,
} from '../lib/geometry.ts';

export type { CropResult };

/** The image to crop, as the file check describes it. */
export interface CropTarget {
  /** The stored file (the check row's itemPath). */
  path: string;
  name: string;
  /** A picture of the image as displayed (EXIF orientation applied), e.g. the check's previewUrl. */
  imageUrl: string;
  /** Pixels of the image as displayed. */
  width: number;
  height: number;
  dpi: number;
  /** The component's print rules: the rectangle starts at its size, and is judged by them; null when no component matched. */
  standard: Standard | null;
  /** Why the file is damaged, when the check said so. */
  reason?: string | null;
}

/** ../shared/spec/product-spec.md §5: a file whose width or height is 0 cannot be cropped. The text to show, or null. */
export function cropRefusal(target: Pick<CropTarget, 'width' | 'height' | 'reason'>): string | null {
  if (target.width > 0 && target.height > 0) return null;
  return target.reason || MSG.fileBroken;
}

const HANDLE = 12;
const CORNERS: Corner[] = ['nw', 'ne', 'sw', 'se'];
const CURSOR: Record<Corner, string> = { nw: 'nwse-resize', se: 'nwse-resize', ne: 'nesw-resize', sw: 'nesw-resize' };

interface Drag {
  pointerId: number;
  mode: 'move' | Corner;
  startX: number;
  startY: number;
  start: Rect;
}

const mm1 = (n: number) => n.toFixed(1);

/** Whether the chosen box will pass once cropped: its size in mm at the image's dpi, and the dpi. */
function Prediction({ prediction, standard }: { prediction: CropPrediction | null; standard: Standard | null }) {
  const { token } = theme.useToken();
  if (!standard || !prediction) {
    return <Typography.Text type="secondary" data-testid="crop-prediction">未匹配部件，无法判断裁切后是否符合要求</Typography.Text>;
  }
  const ok = <CheckCircleFilled style={{ color: token.colorSuccess }} />;
  const bad = <CloseCircleFilled style={{ color: token.colorError }} />;
  const warn = <ExclamationCircleFilled style={{ color: token.colorWarning }} />;
  const range = `${standard.resolutionThreshold}-${standard.resolutionLimit || '不限'}`;
  return (
    <Flex vertical gap={2} data-testid="crop-prediction">
      <Typography.Text type={prediction.sizeOk ? 'success' : 'danger'}>
        {prediction.sizeOk ? ok : bad} 裁切后 {mm1(prediction.widthMm)}×{mm1(prediction.heightMm)} mm：
        {prediction.sizeOk ? '尺寸符合' : '尺寸不符合'}（标准 {standard.width}×{standard.height} mm {toleranceText(standard)}
        {standard.autoOrientationDetection ? '，可横竖互换' : ''}）
      </Typography.Text>
      <Typography.Text type={prediction.dpiOk ? 'success' : 'warning'}>
        {prediction.dpiOk ? ok : warn} 分辨率 {prediction.dpi} dpi：{prediction.dpiOk ? '符合' : '不符合'}要求（{range} dpi）
        {prediction.dpiOk ? '' : '，校验后为分辨率异常'}
      </Typography.Text>
    </Flex>
  );
}

function Cropper({ target, onCancel, onCropped }: { target: CropTarget; onCancel: () => void; onCropped: (result: CropResult) => void }) {
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [orientation, setOrientation] = useState(1);
  const degrees = degreesOf(orientation);
  const image = turned({ width: target.width, height: target.height }, degrees);
  const [boundary] = useState(() => boundaryFor(window.innerHeight));
  const [zoom, setZoom] = useState(() => initialZoom(image, boundary));
  const [rect, setRect] = useState<Rect>(() => initialRect(image, target.standard, zoom));
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const drag = useRef<Drag | null>(null);
  const ratio = target.standard ? rect.width / rect.height : null;
  // With a component, the box becomes its size: the crop states the density that makes it so.
  const dpi = target.standard ? cropDpi(rect, target.standard) : target.dpi;
  const prediction = target.standard ? predictCrop(rect, dpi, target.standard) : null;
  const maxZoom = Math.max(fitZoom(image, boundary), zoom);
  const minZoom = Math.min(0.05, zoom);

  const rotate = () => {
    const next = rotateLeft(orientation);
    const nextImage = turned({ width: target.width, height: target.height }, degreesOf(next));
    const nextZoom = fitZoom(nextImage, boundary);
    setOrientation(next);
    setZoom(nextZoom);
    setRect(initialRect(nextImage, target.standard, nextZoom));
  };

  const onPointerDown = (mode: Drag['mode']) => (e: ReactPointerEvent<HTMLDivElement>) => {
    if (saving) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { pointerId: e.pointerId, mode, startX: e.clientX, startY: e.clientY, start: rect };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const dx = (e.clientX - d.startX) / zoom;
    const dy = (e.clientY - d.startY) / zoom;
    setRect(d.mode === 'move' ? moveRect(d.start, dx, dy, image) : resizeRect(d.start, d.mode, dx, dy, image, ratio));
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId === e.pointerId) drag.current = null;
  };

  const confirm = async () => {
    setSaving(true);
    try {
      const result = await cropImage({ path: target.path, ...requestRect(rect, zoom), rotation: degrees, ...(target.standard ? { dpi } : {}) });
      onCropped(result);
    } catch (error) {
      // Network failures and 5xx were toasted by the HTTP client already.
      if (error instanceof CropFailed) void message.error(error.message ? `${MSG.cropFailed}：${error.message}` : MSG.cropFailed);
    } finally {
      setSaving(false);
    }
  };

  const stage = { width: image.width * zoom, height: image.height * zoom };
  const box = { left: rect.x * zoom, top: rect.y * zoom, width: rect.width * zoom, height: rect.height * zoom };
  return (
    <Flex vertical gap={12}>
      <div
        data-testid="crop-viewport"
        style={{
          position: 'relative',
          width: boundary.width,
          height: boundary.height,
          maxWidth: '100%',
          margin: '0 auto',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
          background: '#2b2f36',
          borderRadius: token.borderRadius,
        }}
      >
        <div style={{ position: 'relative', width: stage.width, height: stage.height, overflow: 'hidden', flexShrink: 0 }}>
          <img
            src={target.imageUrl}
            alt={target.name}
            draggable={false}
            onLoad={() => setLoaded(true)}
            onError={() => {
              setLoaded(true);
              setFailed(true);
            }}
            style={{
              position: 'absolute',
              left: '50%',
              top: '50%',
              width: target.width * zoom,
              height: target.height * zoom,
              maxWidth: 'none',
              transform: `translate(-50%, -50%) rotate(${degrees}deg)`,
              userSelect: 'none',
              pointerEvents: 'none',
            }}
          />
          <div
            role="slider"
            aria-label="裁切区域"
            aria-valuetext={`${rect.width}×${rect.height}`}
            aria-valuenow={rect.x}
            tabIndex={0}
            data-testid="crop-rect"
            onPointerDown={onPointerDown('move')}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            style={{
              position: 'absolute',
              ...box,
              cursor: 'move',
              touchAction: 'none',
              outline: '1px solid #fff',
              boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.5)',
              backgroundImage:
                'linear-gradient(to right, transparent 33.2%, rgba(255,255,255,.45) 33.3%, transparent 33.4%, transparent 66.5%, rgba(255,255,255,.45) 66.6%, transparent 66.7%),' +
                'linear-gradient(to bottom, transparent 33.2%, rgba(255,255,255,.45) 33.3%, transparent 33.4%, transparent 66.5%, rgba(255,255,255,.45) 66.6%, transparent 66.7%)',
            }}
          >
            {CORNERS.map((corner) => (
              <div
                key={corner}
                data-testid={`crop-handle-${corner}`}
                onPointerDown={onPointerDown(corner)}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
                style={{
                  position: 'absolute',
                  width: HANDLE,
                  height: HANDLE,
                  background: '#fff',
                  border: `1px solid ${token.colorPrimary}`,
                  boxSizing: 'border-box',
                  cursor: CURSOR[corner],
                  touchAction: 'none',
                  left: corner.endsWith('w') ? -HANDLE / 2 : undefined,
                  right: corner.endsWith('e') ? -HANDLE / 2 : undefined,
                  top: corner.startsWith('n') ? -HANDLE / 2 : undefined,
                  bottom: corner.startsWith('s') ? -HANDLE / 2 : undefined,
                }}
              />
            ))}
          </div>
        </div>
        {(!loaded || saving) && (
          <Flex
            align="center"
            justify="center"
            data-testid="crop-loading"
            style={{ position: 'absolute', inset: 0, background: 'rgba(0, 0, 0, 0.35)' }}
          >
            <Spin size="large" tip={saving ? '正在裁切…' : '正在加载图片…'}>
              <div style={{ width: 120, height: 60 }} />
            </Spin>
          </Flex>
        )}
        {failed && (
          <Typography.Text style={{ position: 'absolute', color: '#fff' }}>图片加载失败，仍可按尺寸裁切</Typography.Text>
        )}
      </div>
      <Flex align="center" gap={16} wrap>
        <Button icon={<RotateLeftOutlined />} onClick={rotate} disabled={saving}>
          旋转
        </Button>
        <Flex align="center" gap={8} style={{ width: 260 }}>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
            缩放
          </Typography.Text>
          <Slider
            aria-label="缩放"
            min={minZoom}
            max={maxZoom}
            step={0.01}
            value={zoom}
            onChange={(v) => setZoom(v)}
            tooltip={{ formatter: (v) => `${Math.round((v ?? 0) * 100)}%` }}
            style={{ flex: 1 }}
            disabled={saving}
          />
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 13 }} data-testid="crop-size">
          裁切区域 {rect.width}×{rect.height} px（图片 {image.width}×{image.height} px，{target.dpi} dpi；裁切后 {dpi} dpi）
        </Typography.Text>
      </Flex>
      <Flex justify="space-between" align="flex-end" gap={8} wrap>
        <Prediction prediction={prediction} standard={target.standard} />
        <Flex gap={8} style={{ marginLeft: 'auto' }}>
        <Button onClick={onCancel} disabled={saving}>
          取消
        </Button>
        <Button type="primary" onClick={() => void confirm()} loading={saving}>
          确定
        </Button>
        </Flex>
      </Flex>
    </Flex>
  );
}

export interface CropDialogProps {
  /** The image to crop; the dialog is closed when undefined. */
  target: CropTarget | undefined;
  onClose: () => void;
  /** The server cropped the file: its new size (mm and px), dpi and preview. */
  onCropped: (result: CropResult) => void;
}

/**
 * 调整尺寸: the image in a viewport (opened at the zoom that shows all of it) with a crop rectangle the
 * customer moves and resizes (its proportions kept to the component's), a rotate button (-90° a
 * click), zoom, cancel and confirm, and a loading overlay while the image loads and while the server
 * crops. The box becomes the component's size (the density follows from its pixels); before confirming
 * the dialog shows what that size and density will be and whether they pass.
 */
export function CropDialog({ target, onClose, onCropped }: CropDialogProps) {
  return (
    <Modal
      open={target !== undefined}
      title={target ? `调整尺寸：${target.name}` : '调整尺寸'}
      width={BOUNDARY.width + 48}
      style={{ top: 12 }}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      maskClosable={false}
    >
      {target && <Cropper key={target.path} target={target} onCancel={onClose} onCropped={onCropped} />}
    </Modal>
  );
}
