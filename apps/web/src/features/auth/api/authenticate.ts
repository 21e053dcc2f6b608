import { useMutation } from '@tanstack/react-query';
import { post } from '../../../lib/http.ts';

export interface Credentials {
  username: string;
  password: string;
}

export interface AuthenticateAnswer {
  id_token: string;
}

/** POST /api/authenticate: 200 {id_token}; wrong credentials 401 and too many attempts 429, each with a message. */
export async function authenticate(credentials: Credentials): Promise<AuthenticateAnswer> {
  const { data } = await post<AuthenticateAnswer>('/api/authenticate', credentials, { auth: false, silent: true });
  return data;
}

export function useAuthenticate() {
  return useMutation({ mutationFn: authenticate });
}
