"""The organizer's own pages: an account (sign-up, sign-in, reset), the tournament list, adding
a sheet (proved by a one-time code), a new tournament or season, and co-organizers by invitation."""
