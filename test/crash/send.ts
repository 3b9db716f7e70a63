/**
 * One request on its own connection through node:http, which never resends: fetch may retry a
 * PUT or DELETE whose connection a kill cut, and the retry would be a task the harness cannot tell.
 */
import { request } from 'node:http';

export interface Sent {
  status: number;
  body: any;
}

export function send(url: string, method: string, route: string, body?: string, contentType = 'application/json'): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(url + route, { method, agent: false, headers: body === undefined ? {} : { 'content-type': contentType } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
