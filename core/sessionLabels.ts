// How sessions are labelled: a task's own `triage`, an item's `triage[17]`, an earlier attempt's
// `triage#1`. Events of a session carry its label, so a view can fold them into their task; budgets
// count a label's spend for its task (runtime and store both read labels: one definition here).

export function itemLabel(task: string, index: number): string {
  return `${task}[${index}]`;
}

/** The task and item index a session label names, or undefined for a plain task label. */
export function parseItemLabel(label: string): { task: string; index: number } | undefined {
  const m = /^(.+)\[(\d+)\](?:#\d+)?$/.exec(label);
  return m === null ? undefined : { task: m[1]!, index: Number(m[2]) };
}

/** The task a session's label belongs to: iterations (`t[3]`) and earlier attempts (`t#1`) share its budget. */
export function taskOfLabel(label: string): string {
  return label.replace(/[[#].*$/, '');
}
