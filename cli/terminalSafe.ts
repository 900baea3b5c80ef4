// The one sanitiser for text that reaches a terminal. Tool results, model answers, MCP log lines and
// server names are untrusted: an escape sequence in them could clear the screen, set the window
// title, write the clipboard (OSC 52) or overwrite a line already shown (`\r`, cursor movement).
// main() wraps stdout and stderr in it, so every path that prints (inspect --transcript included) is
// covered without each one remembering to call it.

import { rewritingStream } from './rewritingStream.js';

// ESC-introduced sequences: CSI (ESC [ … final), OSC / DCS / SOS / PM / APC (ESC ] P X ^ _ … up to
// BEL or ST, or to the end of the text when unterminated), and the two-character ones (ESC 7, ESC c).
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\|$)|\u001b[ -~]?/g;
// C0 controls but tab and newline, DEL, and the C1 controls (U+009B is a one-character CSI).
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const UNSAFE = new RegExp(`${ESCAPES.source}|${CONTROLS.source}`, 'g');
/** Colours and styles (SGR): the only escape sequences kept, from whomever they come. */
const SGR = /^\u001b\[[0-9;]*m$/;
/** What the live view opens each frame with (cursor up N lines, erase below): kept only there. */
const FRAME_START = /^(?:\u001b\[\d*F)?(?:\u001b\[J)?/;

/** `text` without escape sequences other than colours, control characters, or bare `\r`. */
export function terminalSafe(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  // One pass, so the ESC of a kept colour is not then taken for a control character.
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (seq) => (SGR.test(seq) ? seq : ''));
}

/**
 * A stream whose every write is passed through terminalSafe. On stderr the cursor movement that
 * opens a live-view frame is kept when it is the very start of a write (untrusted text is never
 * first in a write: it follows a label). Callers write whole lines or frames.
 */
export function terminalSafeStream(inner: NodeJS.WritableStream, keepFrameStart: boolean): NodeJS.WritableStream {
  if (!keepFrameStart) return rewritingStream(inner, terminalSafe);
  return rewritingStream(inner, (text) => {
    const lead = FRAME_START.exec(text)![0];
    return lead + terminalSafe(text.slice(lead.length));
  });
}

/**
 * JSON text with DEL and the C1 controls written as `\u` escapes (JSON.stringify leaves them raw):
 * the same document, which the terminal-safe stream then passes unchanged.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
