// How a run was started, stored with it so `resume` continues with the same workspace, caller flags
// and replay/record setting, and `inspect` can draw the task graph without the config.

import { z } from 'zod';

export const RunOptionsSchema = z.object({
  workspaceDir: z.string(),
  taskGraph: z.array(
    z.object({
      name: z.string(),
      dependsOn: z.array(z.string()),
      routes: z.array(z.string()),
      sendTo: z.array(z.string()),
      /** A direct task (its worker runs it, no commander); absent otherwise. */
      direct: z.literal(true).optional(),
    }),
  ),
  overrides: z.object({
    tools: z.array(z.string()).optional(),
    noTools: z.boolean(),
    skills: z.array(z.string()),
    noSkills: z.boolean(),
  }),
  replay: z.string().optional(),
  record: z.string().optional(),
});

export type RunOptions = z.infer<typeof RunOptionsSchema>;
export type TaskGraphEntry = RunOptions['taskGraph'][number];

export function parseRunOptions(runId: string, stored: unknown): RunOptions {
  const parsed = RunOptionsSchema.safeParse(stored);
  if (!parsed.success) throw new Error(`run ${runId} has unreadable stored options (${parsed.error.issues[0]?.message ?? 'invalid'})`);
  return parsed.data;
}
