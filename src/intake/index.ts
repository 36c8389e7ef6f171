/** The intake stage: watching a flow's inbox, claiming complete files, recording, archiving, rejecting. */
export { createIntake, type Intake, type IntakeDeps, type RecoveryReport, type RetakeOutcome } from './create-intake.js';
export { createFileGate, type FileGate } from './file-gate.js';
export { REPORT_SUFFIX, renderCsvReport, renderJsonReport } from './report-files.js';
export { prepareSubmission, type PreparedSubmission } from './submission-keys.js';
