import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests the framework refuses before any route sees them (SECURITY.md "Limits"): a header
 * block or request line over Node's 16 KB answers 431, anything Node's parser cannot read 400,
 * both in the envelope shape (docs/protocol.md "The answer") with an `x-request-id`, instead of a bare
 * status.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // Nothing to answer on a socket that is gone or was reset by the client.
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, msg] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, '请求头或网址过长（不能超过16KB）']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, '请求超时']
        : [400, '请求格式不正确'];
  const body = JSON.stringify({ status, ok: false, msg });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}

/** Longest a refused body is read for before the connection is closed anyway. */
const DRAIN_MS = 30_000;

/**
 * Reads and discards the rest of a request body, up to `limit` bytes (SECURITY.md "Limits"). A
 * 413 sent while the client is still sending, followed by closing the socket, makes the kernel
 * answer the unread bytes with a reset: the client sees EPIPE or a network error, never the
 * answer. Draining first lets the answer arrive; a body beyond the bound is cut off as before.
 */
export function drainRequest(req: IncomingMessage, limit: number): Promise<void> {
  // `readableEnded` too: a body already read to its end (a multipart file cut at its limit, the
  // parser reading on) emits no further 'end' to wait for.
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let seen = 0;
    const timer = setTimeout(done, DRAIN_MS);
    function done() {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    }
    function onData(chunk: Buffer) {
      seen += chunk.length;
      if (seen > limit) done();
    }
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
