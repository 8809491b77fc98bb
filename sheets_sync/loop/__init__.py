"""The sync and watch loop: a workbook read, computed (outcome), written (sync) and published
(publish), remembered (sync_memory), watched for changes (watch, file_events) and served (serve)."""
