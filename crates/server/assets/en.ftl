# calltrump's pages in English. Every key here is in ar.ftl too (e2e/tests/i18n.test.js
# checks both files and the keys the pages use).

## The language switch
language-switch = Language

## Cards
suit-S = spades
suit-H = hearts
suit-D = diamonds
suit-C = clubs
rank-2 = two
rank-3 = three
rank-4 = four
rank-5 = five
rank-6 = six
rank-7 = seven
rank-8 = eight
rank-9 = nine
rank-T = ten
rank-J = jack
rank-Q = queen
rank-K = king
rank-A = ace
card-name = { $rank } of { $suit }
card-RJ = colour joker
card-BJ = black-and-white joker
card-RJ-short = colour joker
card-BJ-short = b&w joker
card-RJ-face = COLOUR JOKER
card-BJ-face = B&W JOKER
no-trump = no trump
card-hidden = a hidden card
and = {" "}and{" "}
nt = NT

## Seats
seat-number = Seat { $seat }
seat-bot = Bot { $seat }
seat-bot-named = { $name } (bot)
seat-you-named = You ({ $name })
seat-you = You
seat-you-inside = you
seat-tricks = tricks { $n }
trump-mark = trump: { $suit }

## Actions in words (buttons' labels, the log, screen readers)
action-named = { $action } ({ $name })
action-pass = pass
action-bid = bid { $n }
action-bid-strain = bid { $n } { $strain }
action-kaibosh = kaibosh (every trick, alone)
action-misdeal = misdeal
action-call2 = call 2 alone in { $strain }
action-call1 = call 1 alone in { $strain }
action-moon = shoot the moon (alone) in { $strain }
action-trump = trump { $strain }
action-give = give { $cards }
action-discard = discard { $cards }
action-play = play the { $card }

## Calls as a seat's bubble and the buttons show them
bubble-named = { $name } ({ $n })
bubble-pass = Pass
bubble-bid = Bid { $n }
bubble-kaibosh = Kaibosh!
bubble-misdeal = Misdeal
bubble-call2 = Call 2 { $strain }
bubble-call1 = Call 1 { $strain }
bubble-moon = Moon { $strain }
bubble-malzom = Malzom (5)
bubble-alone = { $bid } · alone
contract-malzom = { $action } (Malzom, the dealer's forced bid)
contract-alone = { $bid }, alone

## Kout Bo's bids by their names (the rules')
call-name-bid-5 = Bab
call-name-bid-6 = Six
call-name-bid-7 = Seven
call-name-bid-8 = Eight
call-name-bid-9 = Bawan

## The table page's bar and frame
bar-brand = calltrump: the lobby
conn-connecting = Connecting…
conn-connected = Connected
conn-closed = Closed
conn-reconnecting = Reconnecting…
chat-toggle = Chat
bar-menu = Menu: rules, record, pace
bar-rules = Rules
bar-record = Record
pace = Pace
pace-label = How long tricks and hands stay on the table
pace-slow = slow
pace-normal = normal
pace-fast = fast
table-label = The table
center-label = Cards on the table
controls-label = Your choices
hand-label = Your hand
info-label = The game
host-label = Host controls
chat-heading = Table talk
chat-close-label = Close the chat, back to the table
chat-close = Back to the table
chat-input-label = Message to the table
chat-placeholder = Say something
chat-send = Send
name-heading = Take your seat
name-label = Your name
name-sit = Sit down

## The table: connection and names
team-us = Us
team-them = Them
team-letter = Team { $team }
team-and = {" "}&{" "}
hint-said = Hint: { $action } is best, { $points } points.
hint-none = No hint for this position.
server-closed = The server closed the connection: { $reason }
gone-over = this game is over
gone-ended = this table has ended
gone-unknown = there is no table at this link
gone-damaged = this table's saved game is damaged
status-open = The table waits for its players.
status-playing = The game is on.
status-over = The game is over.
status-ended = The host closed the table.
title-host = { $title } · host
title-watching = { $title } · watching

## The table: the log
log-new-hand-you = New hand: you deal.
log-new-hand = New hand: { $seat } deals.
log-undone = { $seat } took back moves: { $n }.
log-committed = Next deal committed: { $commitment }; { $seat } cuts.
log-committed-you = Next deal committed: { $commitment }; you cut.
log-cut = { $seat } cut { $n } cards.
turn-yours = Your turn.
log-so-far = The game so far:
check-needs-https = this browser can check deals only over https or on localhost
check-failed = the check failed: { $error }

## The table: hands and games
log-undone-one = { $seat } took back a move.
hand-thrown-in = Everyone passed: the hand is thrown in.
hand-misdeal = Misdeal: the hand is dealt again.
hand-result = Tricks { $tricks }. Points { $points }.
hand-contract-result = { $seat }: { $contract }. { $result }
score-to = { $a } to { $b }
game-over-draw = Game over: a draw, { $score }.
list-comma = {", "}
game-over-won = Game over: you win, { $scores }.
game-over-lost = Game over: you lose, { $scores }.
game-over-team = Game over: { $team } ({ $members }) win, { $score }.

## The table: seats
seat-label = { $name }, seat { $seat }, team { $team }
team-word = Team
badge-dealer = Dealer
badge-bot = bot · { $level }
badge-open = open seat
badge-standing-in = bot playing for them
badge-away = away · bot in { $s } s
badge-away-title = A bot takes the seat when the countdown ends
badge-online = online
badge-offline = offline
badge-sits-out = sits out
cards-in-hand = { $n } cards in hand
turn-word-auction = bidding
turn-word-trump-naming = naming trump
turn-word-exchange = passing cards
turn-word-play = to play
turn-word-next = next

## The table: the middle
server-away = The server is not answering: trying again…
server-paused = Paused: the server cannot save; waiting…
connecting-table = Connecting to the table…
trick-you-take = You take the trick
trick-takes = { $seat } takes the trick
last-trick-took = Last trick: { $seat } took it
winning-so-far = {", winning so far"}
winning-badge = winning
hide = Hide
you-lead = You lead
seat-leads = { $seat } leads
download-record = Download the record
replay-game = Replay this game
back-to-lobby = Back to the lobby
gone-heading-over = This game is over
gone-heading-ended = This table has ended
gone-heading-unknown = There is no table at this link
gone-heading-damaged = This table's saved game is damaged
gone-link = The link may be mistyped, or cut short.
gone-damaged-kept = It cannot be played on: the server keeps it as it was, for whoever runs the server to look at.
gone-empty = It ended before a hand was dealt: there is no game to replay.
gone-replay-over = Its replay shows every hand.
gone-replay-ended = The host ended it; its replay shows the game up to then.
host-ended-table = The host ended the table
hand-over = Hand over
scores-line = Scores: { $scores }
next-hand-you-cut = Next: hand { $n }. You cut the deck.
next-hand-cuts = Next: hand { $n }. { $seat } cuts the deck.

## The table: the turn line
full-stop = {"."}
page-closed = This page is closed: { $reason }.
waiting-one = Waiting for 1 more player to sit down.
waiting-one-host = Waiting for 1 more player to sit down (or start now with bots).
waiting-more = Waiting for { $n } more players to sit down.
waiting-more-host = Waiting for { $n } more players to sit down (or start now with bots).
waiting-players = Waiting for players to sit down.
waiting-players-host = Waiting for players to sit down (or start now with bots).
host-closed-table = The host closed this table.
game-over = Game over.
your-cut = Your cut: choose how many cards to lift from the top of the deck.
waiting-cut = Waiting for { $seat } to cut the deck…
dealing = Dealing…
hand-over-then = Hand over. { $text }
my-turn-auction = Your call.
my-turn-trump-naming = You won the auction: name trump.
my-turn-play = Your turn: play a card.
watch-instead = Watch instead
tab-gone-over = Game over
tab-gone-ended = Table ended
tab-gone-unknown = No such table
tab-gone-damaged = Damaged table
tab-table = table
tab-your-turn = ▶ Your turn · { $title } · calltrump
tab-title = { $title } · calltrump
tab-start = calltrump table
choose-give-one = Your partner plays alone: choose 1 card to give { $seat }.
choose-give = Your partner plays alone: choose { $n } cards to give { $seat }.
choose-discard-one = Choose 1 card to discard.
choose-discard = Choose { $n } cards to discard.

## The table: the choices
cut = Cut
cut-between = Cut between 1 and { $most } cards.
cut-label = Cards to lift (1 to { $most })
cut-left-typed = { $s } s left: { $n } will be cut then
cut-left-random = { $s } s left, then a random cut
cut-left-label = { $s } seconds left to cut
name-trump = Name trump
hint-thinking = Thinking…
hint = Hint
hint-label = Hint: the bots' three best choices for you, from what you can see
hint-title = Hint: points expected this hand, your side less theirs ({ $deals } deals)
take-back = Take back
hint-best = {", the hint's best"}
loner-call2 = alone: your partner gives you 2 cards, you discard 2; take all 8 tricks
loner-call1 = alone: your partner gives you 1 card, you discard 1; take all 8 tricks
loner-moon = shoot the moon: alone with the cards you were dealt; take all 8 tricks
loner-short-call2 = alone, +2 cards
loner-short-call1 = alone, +1 card
loner-short-moon = alone, no cards
your-call = Your call
level-call2 = Call 2
level-call1 = Call 1
level-moon = Moon
bid-about = bid { $n }: take { $n } of the 8 tricks with your partner
picker-levels = Bid: how many tricks, or a loner
picker-strains = { $level }: the trump
give-cards = Give { $cards }
discard-cards = Discard { $cards }
select-one = Select 1 card ({ $chosen } chosen)
select-cards = Select { $n } cards ({ $chosen } chosen)

## The table: the hand
card-playable = {", playable"}
card-chosen = {", chosen"}
card-choosable = {", can be chosen"}
card-given = {", just given by your partner"}

## The table: whose turn
seat-turn-auction = { $seat } is bidding…
seat-turn-trump-naming = { $seat } is naming trump…
seat-turn-exchange = { $seat } is passing cards…
seat-turn-play = { $seat } to play…
seat-turn-next = { $seat } is next…

## The table: the game panel
fact-hand = Hand
fact-hand-waiting = { $n }: waiting for { $seat } to cut
last-hand = Last hand: { $text }
fact-hand-last = { $n } (the last)
fact-dealer = Dealer
fact-contract = Contract
fact-trump = Trump
fact-sits-out = Sits out
fact-tricks = Tricks
fact-passed = Passed
last-trick-hide = Hide the last trick
last-trick-show = Show the last trick
goal-target = first to { $n } points
goal-deals = hand { $n } of { $of }
scores = Scores
fair-deal = Fair deal
commitment = Commitment
commitment-cut = {", "}cut { $n } by { $seat }
deal-verified = ✓ verified
deal-not-verified = ✗ not verified
deal-not-checked = not checked
seed-later = The seed is revealed when the hand ends; this page then checks the deal.

## The table: the host's panel
host = Host
table-closed = The table is closed.
start-now = Start now (bots take empty seats)
links-waiting = Links of the seats waiting for a person:
sitter-person = a person
sitter-bot = bot: { $level }
end-really = Really end the table?
end-table = End the table

## The table: the chat
sender-watching = a spectator (watching)
sender-host = the host
new-line = 1 new line
new-lines = { $n } new lines
chat-with-new = Chat, { $words }
side-unread = { $n } new in the chat ↓
side-unread-label = { $words } in the chat: go to the chat
head-unread = {" · "}{ $n } new
chat-pending = You (sending once connected):
chat-no-table = there is no table here
chat-table-closed = the table is closed
chat-closed = Chat closed
chat-no-more = No more chat: { $reason }.

## The table: taking a seat
partner-bot-named = { $name }, a bot ({ $level })
partner-bot = a bot ({ $level })
partner-to-come = a player still to come
partner-player = a player
partner-seat = seat { $seat }, { $who }
seat-intro-one = { $game }: you sit at seat { $seat }, team { $team }; your partner is { $partners }.
seat-intro = { $game }: you sit at seat { $seat }, team { $team }; your partners are { $partners }.
chat-name-label = Your name in the chat
set-name = Set name
chat-name-set = Your name in the chat: { $name }

## Shared by the pages: games, bot levels, links
game-kaibosh = Kaibosh
game-bid-euchre = Bid Euchre
game-kout = Kout Bo
variant-standard = Standard
variant-alexa = Alexa
variant-simplified = Simplified
variant-kout6 = 6 players
variant-kout4 = 4 players
length-kout6 = to 101 points (51 when the other side has none)
length-kout4 = to 101 points (51 when the other side has none)
level-easy = easy
level-medium = medium
level-hard = hard
level-expert = expert
level-rules = rules of thumb
level-random = random
copy = Copy
copied = Copied
copy-link = Copy the { $label } link
link-label = { $label } link

## The lobby
lobby-replay-viewer = Replay viewer
lobby-heading = Play Kaibosh, Bid Euchre and Kout Bo with friends and bots
lobby-you = You
lobby-name-placeholder = shown to the table
lobby-new-table = New table
lobby-game = Game
lobby-variant = Variant
lobby-rules-of-game = Rules of this game
lobby-seats = Seats
lobby-seats-hint = Seats alternate between teams A and B round the table: at four, partners sit opposite.
lobby-undo = Allow taking back a move (games against bots)
lobby-hints = Allow hints (games against bots)
lobby-create = Create table
lobby-ready = Table ready
lobby-go = Go to the table
lobby-night = A Bid Euchre night
lobby-night-about = Four or more players, people or bots, play sets of 8 deals of alexa Bid Euchre: partners change after each set, extra players take turns sitting out, and everyone keeps a score of their own.
lobby-start-night = Start a night
lobby-join-heading = Join with a link
lobby-invite-link = Invite link
lobby-join = Join
lobby-tables = Tables
lobby-no-tables = No tables open right now.
lobby-no-shorter = { $game } is played { $length }; the rules have no shorter game yet.
lobby-options = Options (the rules' defaults)
lobby-me = Me
lobby-friend = A friend (invite link)
lobby-seat = Seat { $seat } · team { $team }
lobby-create-failed = The table could not be created: { $error }
lobby-send-links = send each friend their link; the game starts when everyone has sat down.
lobby-starts-when-you-sit = the game starts when you sit down.
lobby-seat-team = Seat { $seat } (team { $team })
lobby-spectators = Spectators
lobby-sit-at = Sit down at seat { $seat }
lobby-open-as-host = Open the table as host
lobby-paste-link = Paste a table link: …/table/ID#token=…
lobby-your-seat = your seat (reserved)
lobby-invited = invited friend (not yet here)
lobby-reserved-for = reserved for { $name }
lobby-someone = someone
lobby-away = { $name } (away)
lobby-waiting = waiting for players
lobby-playing = playing
lobby-back-to-seat = Back to my seat
lobby-open-host = Open as host
lobby-watch = Watch

## The other pages
lobby = Lobby

## The table: turn signals
notify-title = ▶ Your turn at calltrump
turn-signal-sound = Sound on my turn
turn-signal-vibrate = Vibrate on my turn
turn-signal-notify = Notify me when the page is hidden
check-commitment-wrong = the seed does not give the commitment announced before the cut
check-commitment = the seed gives the commitment
check-dealt = the seed gives the commitment and the cut deals your cards
check-not-dealt = the seed and cut do not deal the cards you were dealt

## The server's words by their codes (shown in Arabic; English pages show the server's own)
error-malformed = The server did not understand the page's message.
error-too_fast = Too many messages at once: slow down.
error-hello = The page greeted the table twice.
error-bad_token = This link's seat is not one of this table's.
error-seat_taken = A bot plays this seat now.
error-not_seated = Only a seated player may do that.
error-not_host = Only the host may do that.
error-status = The table does not allow that now.
error-version = The table moved on before your move arrived: it shows the latest now; play again if it is still your turn.
error-illegal = That move is not allowed now.
error-bad_seat = There is no such seat.
error-no_hint = No hint now.
error-chat = The chat line was not sent: too long, or too soon after the last.
error-not_saved = The server could not save that: nothing was done.
error-other = The server refused that.
closing-retry = the server is restarting
closing-idle = the connection was idle
closing-seat_gone = your seat was given to someone else
closing-table_gone = the table is gone
closing-bad_token = the link is not one of this table's
closing-too_big = a message was too big
closing-other = the server closed the connection
turn-signals = Turn signals
back-to-night = The night: scores and the next set
badge-level-easy = easy
badge-level-medium = medium
badge-level-hard = hard
badge-level-expert = expert
badge-level-rules = rules
badge-level-random = random

# The table's words for what went wrong (issue 29)
log-cut-random-you = The server cut { $n } cards for you: your time to cut ran out.
link-refused = Someone tried seat { $n }'s old link, but a bot plays that seat now: give the seat back in your host's panel if they should play.
link-refused-open = Someone tried seat { $n }'s old link: send them the seat's new one.
link-bad = this link's seat is not one of this table's: it may have been cut short when copied
link-bad-heading = This seat link does not work
link-bad-help = Ask the host for the whole link again, or watch the table meanwhile.
move-not-sent = The server is not answering: your move was not sent. The page is reconnecting; try again in a moment.
chat-stepped-aside = Your turn: the chat is closed.
chat-stepped-aside-kept = Your turn: the chat is closed, what you typed is kept.
chat-not-sent-kept = What you typed was not sent; it is still in the box.
lobby-nights-label = Nights being played
lobby-night-set = Night · set { $set } of { $sets }
lobby-night-bot = { $name } (bot)
lobby-follow-night = Follow the night
lobby-watch-set = Watch the set
next-set = Next set
next-set-watch = Watch the next set

# The night's page
night-title = Bid Euchre night
night-new-heading = A night of alexa Bid Euchre
night-about = Four or more players play sets of 8 deals. After each set the partners change; with more than four, players take turns sitting a set out, for 30 points each time. Everyone keeps a score of their own: the highest total at the end of the night wins.
night-players-legend = Players, in order (the rotation follows it)
night-sit-out-order = With more than four, players sit out in list order: the first sits out the first set, the next the second, and so on.
night-add-player = Add a player
night-sets = Sets
night-start = Start the night
night-on = The night is on
night-send-links = Send each player their own link: it takes them to their seat at every set, or to watch when they sit out.
night-sheet-caption = Score sheets: each set's points (partner in brackets), and the totals
night-player-name = Player's name
night-person = a person
night-bot = a bot ({ $level })
night-played-by = Played by
night-remove = Remove
night-remove-label = Remove this player
night-could-not-start = The night could not start.
night-follow-as = Follow the night as { $name }
night-over-one = The night is over after 1 set.
night-over = The night is over after { $n } sets.
night-wins = { $name } wins.
night-shared-win = Shared win: { $names }.
night-stopped = The night was stopped after { $done } of { $sets } sets.
night-set-of = Set { $set } of { $sets }.
night-you-play = { $name }: you play this set with { $partner }.
night-you-sit-out = { $name }: you sit this set out (30 points).
night-go-to-seat = Go to your seat
night-this-set = This set: { $a } and { $c } against { $b } and { $d }; { $a } deals first.
night-sitting-out = Sitting out: { $names }.
night-watch-this-set = Watch this set
night-player = Player
night-set-n = Set { $n }
night-total = Total
night-points-out = { $points } (out)
night-cannot-show = This night cannot be shown.

# The lobby's options (the catalogue's words)
option-none = none
option-all_pass = When everyone passes
option-target = Points to win
option-deals = Deals
option-rounds = Rounds of 4 deals
option-joker_lead = Leading a joker
option-deck = Deck
option-cut = Who cuts
option-meaning-kaibosh-all_pass = what happens when all four pass
option-meaning-bid-euchre-all_pass = what happens when all four pass
option-meaning-kaibosh-target = the score that ends the game
option-meaning-kaibosh-deals = a fixed number of deals; alone, it switches the target off
option-meaning-bid-euchre-deals = the length of the game in deals
option-meaning-bid-euchre-rounds = the length in rounds of 4 deals, not with deals
option-meaning-kout-joker_lead = when a joker may be led besides on a contract of 8 or 9
option-meaning-kout-deck = the four-player deck
option-meaning-kaibosh-cut = who cuts a committed deal
option-meaning-bid-euchre-cut = who cuts a committed deal
option-meaning-kout-cut = who cuts a committed deal
option-choice-redeal = deal again
option-choice-dealer-must-bid = the dealer must bid
option-choice-standard = standard
option-choice-contract-only = contract only
option-choice-all-trumps-played = once all top trumps are out
option-choice-trump-ace-played = once the trump ace is out
option-choice-no-black-sixes = 36 cards: no black sixes
option-choice-two-undealt = 38 cards: two left undealt
option-choice-right = the dealer's right
option-choice-left = the dealer's left

## Accounts: the bar and the sign-in page
account-sign-in = Sign in
account-sign-out = Sign out
account-signed-in-as = Signed in as { $name }
account-heading = Your account
account-delete = Delete my account
account-delete-confirm = Delete the account { $name }? Its games stay, played by "a former player"; its name becomes free for anyone.
account-refused = Refused: { $error }
sign-in-about = An account is optional: an invite link seats anyone. With one, you come back as yourself.
sign-in-heading = Sign in
sign-in-name = Name
sign-in-password = Password
sign-in-submit = Sign in
sign-up-heading = Create an account
sign-up-about = A name of 1 to 24 letters or digits, and a password of 8 characters or more.
sign-up-submit = Create account

## Accounts: "My tables" in the lobby, and a player's page
lobby-my-tables = My tables
lobby-my-tables-about = The seats you took signed in: open them from any device.
lobby-my-tables-empty = You hold no seat at a table in play.
lobby-my-games = My games
my-table-seat = seat { $seat } · { $status }
my-table-open = Back to my seat
player-title = { $name }'s games
player-since = Playing since { $date }.
player-none = No player by that name.
player-tallies = Games played
player-game = Game
player-played = Played
player-won = Won
player-lost = Lost
player-drawn = Drawn
player-no-games = No game played to its end yet.
player-games = Games
player-unfinished = Your tables in play
player-result-won = won
player-result-lost = lost
player-result-drawn = drawn
player-replay = Replay
player-analysis = Analysis
former-player = a former player
