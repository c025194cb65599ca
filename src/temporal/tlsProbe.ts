import tls from 'node:tls';

/**
 * Whether `host:port` answers a TLS handshake: a plain-gRPC client dropped by a TLS server
 * only sees the connection close, and this tells it why. Nothing is verified (it only asks).
 */
export function speaksTls(address: string, timeoutMs = 2_000): Promise<boolean> {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(at + 1));
  return new Promise((resolve) => {
    const socket = tls.connect({ host, port, rejectUnauthorized: false, ALPNProtocols: ['h2'], ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('secureConnect', () => done(true));
    // A TLS alert (a client certificate required under TLS 1.2) is a TLS server too.
    socket.once('error', (err) => done(/alert|SSL/i.test(err.message) && !/wrong version number|packet length too long/i.test(err.message)));
  });
}
