/** Polls a document's status (`POST /v2/document/{id}`) until it is done; throws its error message if it fails. */
export async function waitUntilDone(
  serverUrl: string,
  key: string,
  ids: { document_id: string; document_key: string },
  pollMs = 20,
): Promise<void> {
  const body = JSON.stringify({ document_key: ids.document_key });
  for (;;) {
    const reply = await fetch(`${serverUrl}/v2/document/${ids.document_id}`, {
      method: 'POST',
      body,
      headers: { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' },
    });
    const status = (await reply.json()) as { status: string; error_message?: string };
    if (status.status === 'error') throw new Error(status.error_message);
    if (status.status === 'done') return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
