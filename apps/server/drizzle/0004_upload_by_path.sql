CREATE TABLE "upload_chunks" (
	"upload_id" integer NOT NULL,
	"chunk" integer NOT NULL,
	CONSTRAINT "upload_chunks_upload_id_chunk_pk" PRIMARY KEY("upload_id","chunk")
);
--> statement-breakpoint
DROP INDEX "uploads_identity_uq";--> statement-breakpoint
DROP INDEX "uploads_updated_idx";--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "received_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_chunks" ADD CONSTRAINT "upload_chunks_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Uploads are known by batch and path now, and their bytes wait under a key without the identifier:
-- an upload unfinished at the upgrade cannot be resumed and says so; of two rows for one path, the newest stays.
UPDATE "uploads" SET "status" = 'failed', "error" = '上传中断（服务器已升级），请重新上传该文件' WHERE "status" IN ('receiving', 'assembling');--> statement-breakpoint
DELETE FROM "uploads" u USING "uploads" newer WHERE newer."hub_id" = u."hub_id" AND newer."folder_id" = u."folder_id" AND newer."file_path" = u."file_path" AND newer."id" > u."id";--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_path_uq" ON "uploads" USING btree ("hub_id","folder_id","file_path");--> statement-breakpoint
CREATE INDEX "uploads_status_idx" ON "uploads" USING btree ("status");--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "received_chunks";