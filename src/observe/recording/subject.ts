import type { Subject, SubjectResponse } from '../subject.js';
import { withProviderDispatcher } from './dispatcher.js';
import type { ProviderGateway } from './gateway.js';

/**
 * The subject with its provider traffic going through the gateway: a function subject's requests are caught at
 * the HTTP layer (undici's dispatcher, under `fetch` and the SDKs built on it), a command subject's through the
 * loopback proxy its base-URL variables point at. Receipts of the provider's answers are recorded as the
 * attempt's. When the harness could not serve a request (retries exhausted, no recording), the round fails with
 * the harness's status, never the subject's, whatever the subject made of the failed request.
 */
export function withProviderTraffic(subject: Subject, gateway: ProviderGateway): Subject {
  return {
    kind: subject.kind,
    name: subject.name,
    ...(subject.composition ? { composition: subject.composition } : {}),
    identify: () => subject.identify(),
    async respond(input, context) {
      const traffic = gateway.attempt(context.arm, context.attempt, context.seed, context.round);
      const variables =
        subject.kind === 'command'
          ? { ...context.variables, ...(await gateway.commandVariables(traffic)) }
          : (context.variables ?? {});
      let response: SubjectResponse;
      try {
        response = await withProviderDispatcher(gateway, traffic, () =>
          subject.respond(input, { ...context, variables }),
        );
      } catch (error) {
        if (traffic.failure === null) throw error;
        response = { reply: null };
      } finally {
        for (const receipt of traffic.takeReceipts()) context.recordReceipt(receipt);
        await gateway.save(traffic);
      }
      return traffic.failure === null ? response : { ...response, failure: traffic.failure };
    },
  };
}
