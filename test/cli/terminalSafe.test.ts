import { describe, expect, it } from 'vitest';
import { escapeJsonControls, terminalSafe } from '../../cli/terminalSafe.js';

describe('terminalSafe', () => {
  it('keeps colours, newlines and tabs, and removes every other escape and control character', () => {
    const hostile = 'a\u001b[31mred\u001b[0m\tb\n\u001b[2J\u001b]0;title\u0007\u001b]52;c;eA==\u001b\\x\ry\u009b2Jz\u0007\u001bPdcs\u001b\\\u001b[5F\u001b]8;;http://x\u0007';
    expect(terminalSafe(hostile)).toBe('a\u001b[31mred\u001b[0m\tb\nxy2Jz');
  });

  it('turns \\r\\n into \\n and drops an unterminated OSC to the end', () => {
    expect(terminalSafe('one\r\ntwo\u001b]0;never ends')).toBe('one\ntwo');
  });

  it('leaves plain text as it is', () => {
    const plain = 'plain text, ünïcödé, 数字 and emoji 🎉';
    expect(terminalSafe(plain)).toBe(plain);
  });

  it('escapes C1 controls in JSON text without changing its value', () => {
    const json = JSON.stringify({ t: 'a\u009bb\u007f' });
    expect(escapeJsonControls(json)).toBe('{"t":"a\\u009bb\\u007f"}');
    expect(JSON.parse(escapeJsonControls(json))).toEqual(JSON.parse(json));
  });
});
