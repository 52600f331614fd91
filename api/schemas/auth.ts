import { z } from 'zod';
import { Uuid } from './common.ts';

export const LoginRequest = z
  .object({
    email: z
      .string()
      .trim()
      .max(320)
      .pipe(z.email({ error: 'email must be an e-mail address' })),
    password: z.string().min(1).max(1024),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenResponse = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    tokenType: z.literal('Bearer'),
    expiresIn: z.int().meta({ description: 'Access token lifetime in seconds' }),
    refreshExpiresIn: z.int().meta({ description: 'Refresh token lifetime in seconds' }),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const CurrentUser = z
  .object({
    userUuid: Uuid,
    email: z.string(),
    displayName: z.string(),
    organizationUuid: Uuid,
    organizationName: z.string(),
    permissions: z.array(z.string()),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof CurrentUser>;
