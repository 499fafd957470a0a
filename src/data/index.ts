export { parseCsv, type CsvRow, type CsvTable } from './csv.js';
export { DatasetError, formatIssue, type DatasetIssue } from './errors.js';
export { validateRows, type RawRow, type ValidateOptions } from './rows.js';
export { loadCsv, loadJson } from './load.js';
export { pairByKey, type PairingSpec, type PairGroup, type PairedRow, type Pairing } from './pairing.js';
export { ChatConversation, ChatMessage, readChatConversation } from './trajectories.js';
