import type { EffectClass } from 'riddle/core';

/**
 * The airline domain's tools (tau_bench/envs/airline/tools) by effect class: lookups read the database, the four
 * reservation writes and `send_certificate` change it, a hand-off to a human reaches outside the conversation, and
 * `calculate` / `think` touch nothing.
 */
export const AIRLINE_TOOLS: Readonly<Record<string, EffectClass>> = {
  get_user_details: 'read',
  get_reservation_details: 'read',
  search_direct_flight: 'read',
  search_onestop_flight: 'read',
  list_all_airports: 'read',
  calculate: 'none',
  think: 'none',
  book_reservation: 'write',
  cancel_reservation: 'write',
  update_reservation_flights: 'write',
  update_reservation_baggages: 'write',
  update_reservation_passengers: 'write',
  send_certificate: 'write',
  transfer_to_human_agents: 'external',
};

/** τ-bench's tools answer a failed call with text starting `Error:` (tau_bench/envs/base.py, `step`). */
export const failedResult = (result: string) => result.startsWith('Error:');
