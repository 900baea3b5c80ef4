// POST /webhooks/<path>: a mission's `trigger`. The request proves itself by its signature (no
// bearer token): HMAC over "<t>.<raw body>" (or Go's shared secret header, when the trigger opts in).
// An Idempotency-Key seen before answers the run it started; a signature seen before is a replay.
// The JSON body is the mission's inputs, checked before the answer. The delivery is stored (one
// small insert, with the run id it will have) before the 202 {run_id}; the run starts after it (see
// deliveries.ts: a server stopped in between leaves it to the next).

import { checkRunInputs, checkSharedSecret, checkSignature, newRunId, SquadronError, type Mission } from '../api/index.js';
import { startDelivery } from './deliveries.js';
import { HttpError, readBody, sendJson } from './http.js';
import { inputsAsText, type RouteContext } from './routes.js';

export async function handleWebhook(ctx: RouteContext): Promise<void> {
  const { req, res, state } = ctx;
  const path = ctx.params['path'] ?? '';
  const project = state.project();
  const mission: Mission | undefined = project.graph.missions.find((m) => m.trigger?.path === path);
  const trigger = mission?.trigger;
  if (!mission || !trigger) throw new HttpError(404, 'not_found', `no trigger at /webhooks/${path}`);
  // A Go config's trigger may have no secret: it loads, but nothing unsigned starts a run.
  if (trigger.secret === undefined) throw new HttpError(403, 'refused', `the trigger of mission ${mission.name} has no secret: set one to accept deliveries`);
  const secret = trigger.secret;
  const raw = await readBody(req);
  const header = (name: string): string | undefined => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  let signature: string | undefined;
  if (trigger.signature === 'shared_secret' && header('x-squadron-signature') === undefined) {
    if (!checkSharedSecret(secret, header('x-webhook-secret'))) throw new HttpError(401, 'unauthorized', 'X-Webhook-Secret does not match');
  } else {
    const check = checkSignature(secret, raw, header('x-squadron-signature'), state.now());
    if (!check.ok) throw new HttpError(401, 'unauthorized', check.why);
    signature = check.v1;
  }
const deliveries = state.store.webhookDeliveries;
  // An authenticated delivery's fate is written down for the console (never its signature or key).
  const refused = async (error: HttpError): Promise<HttpError> => {
    await deliveries.log({ path, mission: mission.name, outcome: 'refused', reason: error.message });
    return error;
  };
  const key = header('idempotency-key');
  if (key !== undefined && (key.length === 0 || key.length > 200)) throw await refused(new HttpError(400, 'usage', 'Idempotency-Key must be 1 to 200 characters'));
  let inputs: Record<string, string>;
  try {
    const body = raw.length === 0 ? {} : (JSON.parse(raw.toString('utf8')) as unknown);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(422, 'usage', 'the body must be a JSON object of the mission\'s inputs');
    inputs = inputsAsText(body as Record<string, unknown>);
  } catch (error) {
    throw await refused(error instanceof HttpError ? error : new HttpError(400, 'usage', 'the body is not valid JSON'));
  }
  try {
    await checkRunInputs(project, mission.name, inputs);
  } catch (error) {
    if (error instanceof SquadronError && error.code === 'usage') throw await refused(new HttpError(422, 'usage', error.message));
    throw error;
  }
  const runId = await newRunId();
  const delivery = { runId, path, mission: mission.name, inputs, createdAt: new Date().toISOString() };
  // One write (a savepoint of the turn's shared transaction, groupCommit.ts): the key and the
  // signature claimed, the delivery stored and logged, both bound to its run id. A replay rolls the
  // key's claim back; a redelivery never finds its key bound to a run id that nothing will start.
  let duplicate: string | null | undefined;
  try {
    duplicate = await state.writes.write(async (tx): Promise<string | null | undefined> => {
      const d = tx.webhookDeliveries;
      if (key !== undefined && !(await d.claim(path, 'key', key))) {
        const earlier = (await d.runOf(path, 'key', key)) ?? null;
        if (earlier !== null) await d.log({ path, mission: mission.name, outcome: 'duplicate', runId: earlier });
        return earlier;
      }
      if (signature !== undefined && !(await d.claim(path, 'signature', signature))) throw new HttpError(409, 'replayed', 'this signature was used before (a replayed request)');
      await d.accept(delivery);
      await d.log({ path, mission: mission.name, outcome: 'accepted', runId });
      if (key !== undefined) await d.setRun(path, 'key', key, runId);
      if (signature !== undefined) await d.setRun(path, 'signature', signature, runId);
      return undefined;
    });
  } catch (error) {
    if (error instanceof HttpError && error.code === 'replayed' && signature !== undefined) {
      const earlier = await deliveries.runOf(path, 'signature', signature);
      await deliveries.log({ path, mission: mission.name, outcome: 'replayed', ...(earlier ? { runId: earlier } : {}) });
    }
    throw error;
  }
  if (duplicate === null) throw new HttpError(409, 'in_progress', 'a delivery with this Idempotency-Key is being started');
  if (duplicate !== undefined) return sendJson(res, 200, { run_id: duplicate, duplicate: true });
  const forget = async (): Promise<void> => {
    if (key !== undefined) await deliveries.release(path, 'key', key);
  };
  sendJson(res, 202, { run_id: runId });
  // The run's refusal after the 202 (a missing credential, say) is logged; the sender may deliver again.
  startDelivery(state, state.log, delivery, forget);
}
