import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { GlossaClient } from '../src/index.js';
import { sendJson, startScriptedServer } from './scripted-server.js';

const server = await startScriptedServer();
const sockets = new WebSocketServer({ port: 0, host: '127.0.0.1' });
await once(sockets, 'listening');
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => sockets.close(resolve));
});

describe('voice session and WebSocket, against a scripted loopback service (fake: it records the WebSocket upgrade request, which a real server does not report)', () => {
  it('requests a session, then opens the streaming URL with its token and without the key', async () => {
    const port = (sockets.address() as AddressInfo).port;
    const streamingUrl = `ws://127.0.0.1:${port}/v3/voice/realtime/connect?token=one-time`;
    server.routes({
      'POST /v3/voice/realtime': (_request, res) =>
        sendJson(res, 200, { streaming_url: streamingUrl, token: 'one-time', session_id: 's1' }),
    });
    const upgrades: { url: string | undefined; authorization: string | undefined }[] = [];
    sockets.on('connection', (socket, request) => {
      upgrades.push({ url: request.url, authorization: request.headers.authorization });
      socket.on('message', (data) => socket.send(JSON.stringify({ type: 'echo', data: String(data) })));
    });
    const client = new GlossaClient({ authKey: 'voice-key', serverUrl: server.url });
    const session = await client.voice.createSession({
      sourceMediaContentType: 'audio/wav',
      sourceLanguage: 'en',
      targetLanguages: ['es'],
      unknown: true,
    } as Parameters<typeof client.voice.createSession>[0]);
    expect(JSON.parse(server.requests[0]?.body.toString('utf8') ?? '')).toEqual({
      source_media_content_type: 'audio/wav',
      source_language: 'en',
      target_languages: ['es'],
    });
    const socket = client.voice.connect(session);
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'end_of_source_media' }));
    const [reply] = await once(socket, 'message');
    expect(JSON.parse(String(reply))).toEqual({ type: 'echo', data: '{"type":"end_of_source_media"}' });
    socket.close();
    await once(socket, 'close');
    expect(upgrades).toEqual([
      { url: '/v3/voice/realtime/connect?token=one-time', authorization: undefined },
    ]);
  });
});
