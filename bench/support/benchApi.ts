/**
 * A minimal HTTP client for setting up benchmarks through the server's own API: every answer
 * that is not the expected status fails the setup loudly, with what the server said.
 */
export class BenchApi {
  readonly baseUrl: string;
  readonly #headers: Record<string, string>;

  private constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.#headers = { authorization: `Bearer ${token}` };
  }

  static async login(
    baseUrl: string,
    account: { email: string; password: string },
  ): Promise<BenchApi> {
    const body = await send(baseUrl, 'POST', '/auth/login', {}, account, 200);
    return new BenchApi(baseUrl, (body as { accessToken: string }).accessToken);
  }

  /** The authorization header, for a load generator to send. */
  get headers(): Record<string, string> {
    return { ...this.#headers };
  }

  get<T>(path: string): Promise<T> {
    return send(this.baseUrl, 'GET', path, this.#headers, undefined, 200) as Promise<T>;
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return send(this.baseUrl, 'POST', path, this.#headers, body, 201) as Promise<T>;
  }

  /** Code → uuid of every entry of a catalog list (`/device-types`, `/sensor-types`, ...). */
  async catalog(path: string, uuidField: string): Promise<Map<string, string>> {
    const page = await this.get<{ content: Record<string, string>[] }>(`${path}?size=200`);
    return new Map(page.content.map((entry) => [entry.code!, entry[uuidField]!]));
  }
}

async function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  expectedStatus: number,
): Promise<unknown> {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expectedStatus) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return text ? (JSON.parse(text) as unknown) : undefined;
}
