// Action classes: verbs that name the same software operation. A tool named verb_object
// (`create_invoice`, `delete_file`) is indexed under the classes of its verb, and a query word under
// its own classes, so "erase a file" meets `delete_file` without a per-tool synonym list.
//
// Nothing here is fitted to a benchmark. The lines transcribe published naming conventions:
//  - PowerShell's approved verbs ("Approved Verbs for PowerShell Commands", learn.microsoft.com):
//    each approved verb with the synonyms that page tells authors not to use for the same action;
//  - PSSwagger's verb map (Microsoft, MIT), which maps REST operation verbs to those approved verbs
//    (Create → New, List → Get, Delete → Remove, Cancel → Stop, Recover → Restore, ...);
//  - CRUD over HTTP and Rails' resource actions (index/show/new/create/edit/update/destroy): post
//    creates, put/patch update, destroy removes, show gets; "add" creates a record in CRUD screens.
// A word may belong to several classes. One line per class: `class: member, member`.

import { stem } from '../stem.js';

export const ACTION_CLASSES = `
add: add, append, attach, concatenate, insert, apply
approve: approve
assert: assert, certify
backup: backup, save, burn, replicate, sync
block: block, prevent, limit, deny
build: build, compile
checkpoint: checkpoint, diff
clear: clear, flush, erase, release, unmark, unset, nullify, wipe, purge
close: close
compare: compare, diff
complete: complete, finish
compress: compress, compact
confirm: confirm, acknowledge, agree, certify, validate, verify
connect: connect, join, telnet, login
convert: convert, change, resize, resample
copy: copy, duplicate, clone, replicate, sync
create: create, new, generate, build, make, allocate, provision, regenerate, post, add
debug: debug, diagnose
deny: deny, block, object, refuse, reject
deploy: deploy
disable: disable, halt, hide
disconnect: disconnect, break, logoff
dismount: dismount, unmount, unlink
edit: edit, change, update, modify
enable: enable, start, begin
enter: enter, push
exit: exit, pop
expand: expand, explode, uncompress
export: export, extract, backup, capture
find: find, discover, locate, search
format: format
get: get, read, open, cat, type, dir, obtain, dump, acquire, examine, find, search, access, list, suggest, retrieve, show
grant: grant, allow, enable, authorize
group: group, aggregate, arrange, associate, correlate
hide: hide, block
import: import, bulkload, load
initialize: initialize, erase, init, renew, rebuild, reinitialize, setup, activate
install: install, setup
invoke: invoke, run, start, execute, perform
join: join, combine, unite, connect, associate
limit: limit, quota
lock: lock, restrict, secure
measure: measure, calculate, determine, analyze
merge: merge, combine, join
mount: mount, connect
move: move, transfer, name, migrate, reassociate
new: new, create, generate, build, make, allocate
open: open
optimize: optimize
publish: publish, deploy, release, install
read: read, acquire, prompt, get
receive: receive, read, accept, peek
redo: redo
register: register
remove: remove, delete, clear, cut, dispose, discard, erase, destroy, purge
rename: rename, change
repair: repair, fix, restore
request: request
reset: reset, generalize
resize: resize
resolve: resolve, expand, determine
restart: restart, recycle, reboot
restore: restore, repair, return, undo, fix, recover, undelete
resume: resume
revoke: revoke, remove, disable
save: save
search: search, find, locate
select: select, find, locate
send: send, put, broadcast, mail, fax, notify
set: set, write, reset, assign, configure, failover
show: show, display, produce
skip: skip, bypass, jump
split: split, separate
start: start, launch, initiate, boot, power, trigger, run
stop: stop, end, kill, terminate, cancel, shutdown
submit: submit, post, resubmit
suspend: suspend, pause
switch: switch, swap
test: test, diagnose, analyze, salvage, verify, validate, check, evaluate
trace: trace, track, follow, inspect, dig
unblock: unblock, clear, allow
undo: undo
unlock: unlock, release, unrestrict, unsecure
unprotect: unprotect, decrypt, unseal
unpublish: unpublish, uninstall, revert, hide
unregister: unregister, remove
update: update, refresh, renew, recalculate, reindex, patch, upgrade, reprocess, retarget, put
use: use
wait: wait, sleep, pause
watch: watch, monitor
write: write, put, print
`;

/** Prefix of an action-class index term; splitWords never produces it, so it cannot collide. */
export const ACTION_PREFIX = '~';

type ClassTable = Map<string, string[]>;
let parsed: ClassTable | undefined;

/** stemmed word → the class terms (`~remove`) it belongs to. Parsed once per process. */
function classTable(): ClassTable {
  if (parsed) return parsed;
  const out: ClassTable = new Map();
  for (const line of ACTION_CLASSES.split('\n')) {
    const m = /^([a-z]+):\s*(.+)$/.exec(line.trim());
    if (!m?.[1] || !m[2]) continue;
    const term = ACTION_PREFIX + m[1];
    for (const member of m[2].split(',')) {
      const word = stem(member.trim());
      if (!word) continue;
      const list = out.get(word) ?? [];
      if (!list.includes(term)) list.push(term);
      out.set(word, list);
    }
  }
  parsed = out;
  return out;
}

/** The action classes of a word or its inflection: `erased` → [`~clear`, `~initialize`, `~remove`]. */
export function actionClasses(word: string): readonly string[] {
  return classTable().get(stem(word)) ?? [];
}
