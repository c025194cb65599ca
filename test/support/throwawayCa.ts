import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';

export interface ThrowawayCa {
  dir: string;
  ca: string;
  /** Signs a certificate for `names` (subjectAltName entries such as DNS:x or IP:1.2.3.4); returns its cert and key paths. */
  issue(name: string, names: string[]): Promise<{ cert: string; key: string }>;
}

/** A CA made with openssl in `dir`, as docs/scale-out.md makes one. */
export async function throwawayCa(dir: string, label = 'ca'): Promise<ThrowawayCa> {
  const ssl = (...args: string[]) => execa('openssl', args, { cwd: dir });
  await ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${label}.key`, '-out', `${label}.pem`, '-days', '1', '-subj', `/CN=evalflow test ${label}`);
  return {
    dir,
    ca: join(dir, `${label}.pem`),
    async issue(name, names) {
      await ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
      const ext = names.length > 0 ? `subjectAltName=${names.join(',')}\n` : 'basicConstraints=CA:FALSE\n';
      await writeFile(join(dir, `${name}.ext`), ext);
      await ssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${label}.pem`, '-CAkey', `${label}.key`, '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', `${name}.ext`);
      return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
    },
  };
}
