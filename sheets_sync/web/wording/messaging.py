"""The players' messages' words on the organizer's page, key -> (ru, en) (joined in :mod:`sheets_sync.web.words`)."""

WORDS: dict[str, tuple[str, str]] = {
    "messages.section": ("Сообщения игрокам", "Messages to players"),
    "messages.help": ("Бот в Telegram (или письмо, где игрок не дал Telegram) сообщает игроку о его заявке, "
                      "столе и месте на каждый тур и о выходе в следующий этап. Каждое сообщение — один раз.",
                      "The Telegram bot (or an e-mail where a player gave no Telegram) tells each player about his "
                      "application, his table and seat every round and the next stage reached. Each message once."),
    "messages.counts": ("Отправлено: {sent}, ждут отправки: {queued}, не доставлено: {failed}, под вопросом: {uncertain}.",
                        "Sent: {sent}, waiting: {queued}, not delivered: {failed}, in doubt: {uncertain}."),
    "messages.doubtful": ("Под вопросом: отправка прервалась, и сообщение могло дойти. Само оно больше не уйдёт — "
                          "решите сами: отправить ещё раз или считать доставленным.",
                          "In doubt: the sending was cut off and the message may have arrived. It will not go again "
                          "by itself: send it again, or count it as delivered."),
    "messages.player": ("Игрок", "Player"),
    "messages.text": ("Сообщение", "Message"),
    "messages.why": ("Что случилось", "What happened"),
    "messages.resend": ("Отправить ещё раз", "Send again"),
    "messages.delivered": ("Дошло", "It arrived"),
    "messages.resent": ("Сообщение отправится ещё раз.", "The message will be sent again."),
    "messages.marked": ("Сообщение отмечено как доставленное.", "The message is counted as delivered."),
    "messages.failed.list": ("Не доставлено", "Not delivered"),
}
