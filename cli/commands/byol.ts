/**
 * `drugref byol rotate`: re-seals every stored BYOL credential under the active master
 * key. Rotation: add the new key to BYOL_MASTER_KEYS (keep the old one), set
 * BYOL_MASTER_KEY_ID to the new id, restart the servers (they now seal with the new key
 * and still open old rows), run this command, then drop the old key from BYOL_MASTER_KEYS.
 */
import { loadConfig } from '../../platform/config.ts';
import { rotateCredentials } from '../../resolvers/byol/vault.ts';
import { openConfiguredDatabase } from '../database.ts';

/** `byol rotate`. */
export async function rotate(): Promise<number> {
  const config = loadConfig();
  if (!config.byolActiveKeyId) throw new Error('BYOL_MASTER_KEYS is empty: there is no key to rotate to.');
  const db = await openConfiguredDatabase(config);
  try {
    const moved = await rotateCredentials(db, { keys: config.byolMasterKeys, activeKeyId: config.byolActiveKeyId });
    process.stdout.write(`Re-sealed ${moved} credential(s) under master key "${config.byolActiveKeyId}". Rows under other keys: none left.\n`);
    return 0;
  } finally {
    await db.close();
  }
}

