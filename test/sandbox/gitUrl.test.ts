import { describe, expect, it } from 'vitest';
import { gitSourceOf, isCommitId, localPathOfSource, looksLikeGitUrl, parseGitUrl } from '../../src/sandbox/gitUrl.js';

describe('parseGitUrl', () => {
  it('takes the forms git is fetched over here, with an optional #ref', () => {
    expect(parseGitUrl('https://git.example.com/team/app.git')).toEqual({ url: 'https://git.example.com/team/app.git' });
    expect(parseGitUrl('ssh://git@git.example.com:2222/team/app.git#v1.2')).toEqual({ url: 'ssh://git@git.example.com:2222/team/app.git', ref: 'v1.2' });
    expect(parseGitUrl('git@github.com:team/app.git#release/2024')).toEqual({ url: 'git@github.com:team/app.git', ref: 'release/2024' });
    expect(parseGitUrl('file:///srv/git/app.git')).toEqual({ url: 'file:///srv/git/app.git' });
    expect(parseGitUrl(`file:///srv/git/app.git#${'a'.repeat(40)}`)).toEqual({ url: 'file:///srv/git/app.git', ref: 'a'.repeat(40) });
  });

  it('says what is wrong with a bad one, and what it expected', () => {
    const problem = (value: string) => (parseGitUrl(value) as { problem: string }).problem;
    expect(problem('ftp://host/repo')).toMatch(/^expected a local path or a git URL \(https:\/\/host\/repo, .*#ref, found 'ftp:\/\/host\/repo' \(scheme ftp:\/\/ is not one git is fetched over here\)$/);
    expect(problem('https://')).toMatch(/not a URL|no host/);
    expect(problem('https://host')).toMatch(/no repository path/);
    expect(problem('https://me:s3cret@host/repo.git')).toMatch(/a password in the URL would be stored with every run/);
    expect(problem('file://relative/repo')).toMatch(/file:\/\/\/absolute\/path/);
    expect(problem('git@host:')).toMatch(/user@host:path/);
    expect(problem('https://host/repo.git#--upload-pack=x')).toMatch(/'--upload-pack=x' is not a ref name/);
    expect(problem('https://host/repo.git#a..b')).toMatch(/is not a ref name/);
  });
});

describe('looksLikeGitUrl and the rest', () => {
  it('tells URLs from paths, so a path is never read as a URL', () => {
    for (const url of ['https://h/r', 'ftp://h/r', 'git@h:r', 'file:///r']) expect(looksLikeGitUrl(url)).toBe(true);
    for (const path of ['/srv/app', './app', 'examples/project', '~/code/app', '/home/me@work:x/app', 'C:\\code\\app']) expect(looksLikeGitUrl(path)).toBe(false);
    expect(gitSourceOf('/srv/app')).toBeUndefined();
    expect(gitSourceOf('ftp://h/r')).toBeUndefined();
    expect(isCommitId('a'.repeat(40))).toBe(true);
    expect(isCommitId('main')).toBe(false);
  });

  it('names the folder on this host a source reads from: a path, a file:// repository, nothing for a remote', () => {
    expect(localPathOfSource('/srv/app')).toBe('/srv/app');
    expect(localPathOfSource('file:///srv/git/app.git#v1')).toBe('/srv/git/app.git');
    expect(localPathOfSource('https://h/r.git')).toBeUndefined();
    expect(localPathOfSource('git@h:r.git')).toBeUndefined();
  });
});
