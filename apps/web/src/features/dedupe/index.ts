/**
 * The public entry of features/dedupe: bytes the shop already has are not sent (issue #21 item 2). The
 * uploader asks a Linker before it sends a file. Other features and app/ import only this.
 */
export { createLinker, type LinkableFile, type Linker } from './linker.ts';
