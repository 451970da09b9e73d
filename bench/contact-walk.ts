/**
 * Walking every contact through the platform client, at the contract's default page size (48)
 * and at the simulator's maximum (1000): the figure behind the design's "full sync with the
 * largest page_size the platform accepts". Real HTTP against the simulator on loopback.
 */
import { startSimulator } from '../simulator/index';
import { signedInApi } from './signed-in-api';

export async function contactWalk(contacts = 8000): Promise<void> {
  const sim = await startSimulator({
    contacts,
    autoAnswer: false,
    rateLimits: { phonebook: { limit: 1_000_000, window_seconds: 60 } },
  });
  try {
    const api = await signedInApi(sim);
    console.log(`${contacts} contacts in the simulator, user with the view-all role`);
    console.log('page_size  requests  seconds  contacts/s');
    for (const pageSize of [48, 200, 1000]) {
      const started = performance.now();
      let count = 0;
      for await (const contact of api.phonebooks.allContacts({ page_size: pageSize })) {
        if (contact.id) count++;
      }
      const seconds = (performance.now() - started) / 1000;
      const requests = Math.ceil(count / pageSize);
      console.log(
        `${String(pageSize).padStart(9)}  ${String(requests).padStart(8)}  ${seconds.toFixed(2).padStart(7)}  ${Math.round(
          count / seconds,
        )
          .toString()
          .padStart(10)}`,
      );
    }
  } finally {
    await sim.close();
  }
}
