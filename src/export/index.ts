/** `rampart export`: live rules and IP lists → policy files. */
export { buildExport } from './build.js';
export { writeExport, type WriteResult } from './write.js';
export { renderReport, type ReportFormat } from './report.js';
export { assignNames, contentHash, nameStem, slugify } from './names.js';
export { selectObjects } from './select.js';
export * from './types.js';
export type { ExportFile } from './export-file.js';
export type { ExportResult } from './export-result.js';
export { EXPORT_RECORD_FILE, parseRecord, type ExportedObject, type ExportRecord } from './record.js';
