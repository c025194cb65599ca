import { describe, expect, it } from 'vitest';
import { parseRepositoryUrl } from '../../../src/editprediction/replay/repositoryLocation.js';

describe('parseRepositoryUrl', () => {
  it('keys https and git@ URLs by owner/repo, dropping .git', () => {
    expect(parseRepositoryUrl('https://github.com/pallets/flask', '/cwd')).toEqual({ kind: 'remote', url: 'https://github.com/pallets/flask', owner: 'pallets', name: 'flask' });
    expect(parseRepositoryUrl('git@github.com:zed-industries/zed.git', '/cwd')).toMatchObject({ kind: 'remote', owner: 'zed-industries', name: 'zed' });
    expect(parseRepositoryUrl('ssh://git@host.example/team/tool.git', '/cwd')).toMatchObject({ kind: 'remote', owner: 'team', name: 'tool' });
  });

  it('treats paths and file:// URLs as local repositories keyed by parent and folder', () => {
    expect(parseRepositoryUrl('file:///srv/git/acme/widget.git', '/cwd')).toEqual({ kind: 'local', url: 'file:///srv/git/acme/widget.git', path: '/srv/git/acme/widget.git', owner: 'acme', name: 'widget' });
    expect(parseRepositoryUrl('../repos/demo', '/home/me/work')).toMatchObject({ kind: 'local', path: '/home/me/repos/demo', owner: 'repos', name: 'demo' });
  });

  it('rejects an empty URL and an https URL without owner/repo', () => {
    expect(() => parseRepositoryUrl('', '/cwd')).toThrow('repository_url: expected a repository URL or local path, found an empty string');
    expect(() => parseRepositoryUrl('https://github.com/just-owner', '/cwd')).toThrow('repository_url: expected <host>/<owner>/<repo>');
  });
});
