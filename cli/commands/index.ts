// Every command of the CLI, in the order `squadron --help` lists them.

import type { CommandRegistrar } from '../io.js';
import { register as registerRun } from './run.js';
import { register as registerResume } from './resume.js';
import { register as registerRuns } from './runs.js';
import { register as registerInspect } from './inspect.js';
import { register as registerValidate } from './validate.js';
import { register as registerDocs } from './docs.js';
import { register as registerPlan } from './plan.js';
import { register as registerTools } from './tools.js';

export const registrars: CommandRegistrar[] = [registerValidate, registerPlan, registerTools, registerRun, registerResume, registerRuns, registerInspect, registerDocs];
