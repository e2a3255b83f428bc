/** A tiny stand-in for the GitHub and GitLab comment APIs, on real HTTP (127.0.0.1, port 0). */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredComment {
  id: number;
  body: string;
  user: string;
  created_at: string;
  system?: boolean;
}

export interface RecordedCall {
  method: string;
  path: string;
  auth: string | undefined;
  body?: unknown;
}

export interface FakeForge {
  url: string;
  comments: StoredComment[];
  calls: RecordedCall[];
  /** Login /user answers with; undefined answers 403 like the workflow token. */
  me: string | undefined;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeForge(kind: 'github' | 'gitlab', token: string): Promise<FakeForge> {
  let nextId = 1000;
  const state: Omit<FakeForge, 'url' | 'close'> = { comments: [], calls: [], me: undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = await readBody(req);
      const auth = kind === 'github' ? req.headers.authorization : (req.headers['private-token'] as string | undefined);
      state.calls.push({ method: req.method ?? '', path: url.pathname + url.search, auth, ...(body !== undefined ? { body } : {}) });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const expected = kind === 'github' ? `Bearer ${token}` : token;
      if (auth !== expected) return send(401, { message: 'Bad credentials' });
      const path = url.pathname;
      if (path === '/user') {
        if (state.me === undefined) return send(403, { message: 'Resource not accessible by integration' });
        return send(200, kind === 'github' ? { login: state.me } : { username: state.me });
      }
      const view = (c: StoredComment) =>
        kind === 'github'
          ? { id: c.id, body: c.body, user: { login: c.user }, created_at: c.created_at }
          : { id: c.id, body: c.body, author: { username: c.user }, created_at: c.created_at, system: c.system ?? false };
      const list = kind === 'github' ? /^\/repos\/acme\/policies\/issues\/42\/comments$/ : /^\/projects\/7\/merge_requests\/42\/notes$/;
      const one = kind === 'github' ? /^\/repos\/acme\/policies\/issues\/comments\/(\d+)$/ : /^\/projects\/7\/merge_requests\/42\/notes\/(\d+)$/;
      if (list.test(path) && req.method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        return send(200, state.comments.slice((page - 1) * perPage, page * perPage).map(view));
      }
      if (list.test(path) && req.method === 'POST') {
        const comment: StoredComment = { id: nextId++, body: (body as { body: string }).body, user: state.me ?? (kind === 'github' ? 'github-actions[bot]' : 'bot'), created_at: new Date().toISOString() };
        state.comments.push(comment);
        return send(201, view(comment));
      }
      const match = one.exec(path);
      if (match && req.method === (kind === 'github' ? 'PATCH' : 'PUT')) {
        const comment = state.comments.find((c) => c.id === Number(match[1]));
        if (!comment) return send(404, { message: 'Not Found' });
        comment.body = (body as { body: string }).body;
        return send(200, view(comment));
      }
      return send(404, { message: `no route ${req.method} ${path}` });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
