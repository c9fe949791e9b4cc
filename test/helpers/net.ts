import { createServer } from 'node:net';

/** Ports this process has handed out: the kernel may offer a just-closed port again at once. */
const handedOut = new Set<number>();

function askKernel(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 right now (servers under test listen on it next), and never one
 * this process was given before: a test that takes several ports before starting anything would
 * otherwise sometimes get the same port twice.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await askKernel();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
