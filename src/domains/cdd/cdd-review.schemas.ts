import { z } from 'zod';

// Text PostgreSQL cannot store (NUL) would fail the projection after the workflow accepted the change: refused here.
const motivazione = z.string().trim().min(1, 'Indica la motivazione').max(5_000, 'Massimo 5000 caratteri')
  .refine((v) => !v.includes('\u0000'), 'Testo non valido');

/** A new due date for a periodic review: a date (YYYY-MM-DD, midnight UTC) or a date-time with its offset. */
export const rescheduleReviewSchema = z.object({
  due_at: z.union([z.iso.date(), z.iso.datetime({ offset: true })], { message: 'Indica una data valida (AAAA-MM-GG)' }),
  motivazione,
});
export type RescheduleReviewInput = z.input<typeof rescheduleReviewSchema>;

export const cancelReviewSchema = z.object({ motivazione });
export type CancelReviewInput = z.input<typeof cancelReviewSchema>;

/** How far ahead a review may be moved: the longest interval the settings allow (cdd.review_years_*). */
export const MAX_REVIEW_YEARS = 10;
