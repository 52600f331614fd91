import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { badRequest } from './errors.ts';

/**
 * Bodies are JSON whatever their declared content type: a body that does not parse is a 400,
 * as the decisions file says, rather than Fastify's 415 for an unexpected media type. An empty
 * body is no body. Parsed as Fastify's own parser does (secure-json-parse): a `__proto__` key or a
 * `constructor.prototype` is refused, since a handler that merges the body into an object would
 * otherwise let it change every object's prototype.
 */
export function installJsonBodyParser(app: FastifyInstance, bodyLimitBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: bodyLimitBytes },
    (_request, text: string | Buffer, done) => {
      const source = typeof text === 'string' ? text : text.toString('utf8');
      if (source.trim() === '') return done(null, undefined);
      try {
        done(
          null,
          secureJson.parse(source, undefined, {
            protoAction: 'error',
            constructorAction: 'error',
          }) as unknown,
        );
      } catch (error) {
        const detail =
          error instanceof SyntaxError
            ? `: ${error.message}`
            : error instanceof RangeError
              ? ': nested too deeply'
              : '';
        done(badRequest(`Malformed JSON request body${detail}`), undefined);
      }
    },
  );
}
