// A schedule's next fire times and how they read in its time zone, for the CLI's `validate` and
// `plan` lines: a small door of its own, so those commands load no store or runtime for it.

export { nextFires, zonedTime } from '../config/stages/schedule.js';
