import { changeClaimExtractor } from 'riddle/core';

/** A statement of fact, not a condition, promise or question: "once it has been cancelled…" claims nothing. */
const STATED = String.raw`^(?!.*\b(?:if|once|after|when|whenever|unless|before|until|will|would|can|could|should)\b)(?!.*\?\s*$)`;
const DONE = String.raw`(?:has|have)\s+(?:now\s+)?been\s+(?:successfully\s+)?`;
const I_DID = String.raw`\bI(?:'ve|\s+have)\s+(?:now\s+)?(?:successfully\s+)?`;

const claim = (body: string) => new RegExp(`${STATED}.*${body}`, 'i');

/**
 * The airline agent's statements that a change is done, and the writes that bear each out: a cancelled reservation,
 * a booking, an updated reservation (flights, cabin, bags, passengers), added bags, an issued certificate. A sentence
 * naming a reservation code must be borne out by a write naming that code.
 */
export const airlineChangeClaims = changeClaimExtractor({
  id: 'airline-change-claims/1',
  patterns: [
    {
      pattern: claim(
        String.raw`(?:\b(?:reservations?|bookings?|trips?)\b.*(?:${DONE}|\bwas\s+successfully\s+|\bwere\s+successfully\s+)cancel+ed|${I_DID}cancel+ed)`,
      ),
      tools: ['cancel_reservation'],
    },
    {
      pattern: claim(String.raw`(?:${DONE}booked|${I_DID}booked|\bbooking\b.*${DONE}(?:completed|confirmed))`),
      tools: ['book_reservation'],
    },
    {
      // "You are now booked on the nonstop flight" follows a booking or a change of flights alike.
      pattern: claim(String.raw`\byou\s+are\s+now\s+booked\b`),
      tools: ['book_reservation', 'update_reservation_flights'],
    },
    {
      pattern: claim(String.raw`\bbags?\b.*${DONE}added`),
      tools: ['update_reservation_baggages'],
    },
    {
      pattern: claim(
        String.raw`(?:\b(?:reservations?|bookings?|flights?|passengers?|names?|cabin|class)\b.*(?:${DONE}|\bwas\s+successfully\s+)(?:updated|changed|modified|upgraded|downgraded)|${I_DID}(?:updated|changed|modified|upgraded|downgraded))`,
      ),
      tools: ['update_reservation_flights', 'update_reservation_baggages', 'update_reservation_passengers'],
    },
    {
      pattern: claim(
        String.raw`(?:${I_DID}(?:issued|sent)\b.*\bcertificate|\bcertificate\b.*${DONE}(?:issued|sent|added))`,
      ),
      tools: ['send_certificate'],
    },
  ],
  // Reservation codes: six capitals and digits, at least one of each; flight numbers (HAT136) are not records.
  identifiers: /\b(?!HAT\d{3}\b)(?=[A-Z0-9]{6}\b)(?=[A-Z0-9]*\d)[A-Z0-9]*[A-Z][A-Z0-9]*\b/g,
});
