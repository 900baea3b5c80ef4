// How an item's sessions are labelled: `triage[17]`, beside the task's own label `triage`. Events of
// an item's sessions carry the same label, so a view can fold them into their task.

export function itemLabel(task: string, index: number): string {
  return `${task}[${index}]`;
}

/** The task and item index a session label names, or undefined for a plain task label. */
export function parseItemLabel(label: string): { task: string; index: number } | undefined {
  const m = /^(.+)\[(\d+)\](?:#\d+)?$/.exec(label);
  return m === null ? undefined : { task: m[1]!, index: Number(m[2]) };
}
