"""Messages to players (issue 45 §4): the Telegram bot the server runs, e-mail where a player gave
no Telegram, and the outbox they are sent from."""
