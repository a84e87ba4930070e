import { Text } from 'ink';
import type { InternApi } from '../../client/types.js';
import type { Intern } from '../../contract/intern.js';

export interface AttachScreenProps {
  api: InternApi;
  intern: Intern;
  scrollback: number;
  /** Back to the intern's details (the detach key, or any key after the remote exited). */
  onDetach: () => void;
  /** Offered when the intern is not running. */
  onProvision?: () => void;
}

// Placeholder until attach lands (issue 5).
export function AttachScreen({ intern }: AttachScreenProps) {
  return <Text>Attach to {intern.name} is not built yet.</Text>;
}
