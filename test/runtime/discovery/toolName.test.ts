import { describe, expect, it } from 'vitest';
import { nameParts } from '../../../runtime/discovery/toolName.js';

describe('nameParts', () => {
  it('strips the source word and the group words, leaving verb and object', () => {
    expect(nameParts({ ref: 'tools.crm_create_contact', group: 'crm' })).toEqual({ words: ['create', 'contact'], verb: 'create' });
    expect(nameParts({ ref: 'mcp.github.create_pull_request', group: 'mcp.github' })).toEqual({
      words: ['create', 'pull', 'request'],
      verb: 'create',
    });
    expect(nameParts({ ref: 'builtins.http.get', group: 'builtins.http' })).toEqual({ words: ['get'], verb: 'get' });
  });

  it('keeps the name when it does not repeat its group, and keeps a last word named like the group', () => {
    expect(nameParts({ ref: 'tools.send_email', group: 'comms' })).toEqual({ words: ['send', 'email'], verb: 'send' });
    expect(nameParts({ ref: 'tools.weather', group: 'tools' })).toEqual({ words: ['weather'], verb: 'weather' });
    expect(nameParts({ ref: 'mcp.search.search', group: 'mcp.search' })).toEqual({ words: ['search'], verb: 'search' });
  });
});
