# صفحات calltrump بالعربية. كل مفتاح هنا موجود في en.ftl أيضًا (يفحص ذلك
# e2e/tests/i18n.test.js).

## The language switch
language-switch = اللغة

## Cards
suit-S = سبيت
suit-H = هاص
suit-D = ديمن
suit-C = شريا
rank-2 = اثنين
rank-3 = ثلاثة
rank-4 = أربعة
rank-5 = خمسة
rank-6 = ستة
rank-7 = سبعة
rank-8 = ثمانية
rank-9 = تسعة
rank-T = عشرة
rank-J = ولد
rank-Q = بنت
rank-K = شايب
rank-A = إكة
card-name = { $rank } { $suit }
card-RJ = الجوكر الملوّن
card-BJ = الجوكر الأبيض والأسود
card-RJ-short = الجوكر الملوّن
card-BJ-short = الجوكر الأسود
card-RJ-face = جوكر ملوّن
card-BJ-face = جوكر أسود
no-trump = بلا حكم
card-hidden = ورقة مخفية
and = {" "}و
nt = بلا حكم

## Seats
seat-number = المقعد { $seat }
seat-bot = بوت { $seat }
seat-bot-named = { $name } (بوت)
seat-you-named = أنت ({ $name })
seat-you = أنت
seat-you-inside = أنت
seat-tricks = الأكلات { $n }
trump-mark = الحكم: { $suit }

## Actions in words (buttons' labels, the log, screen readers)
action-named = { $action } ({ $name })
action-pass = باس
action-bid = طلب { $n }
action-bid-strain = طلب { $n } { $strain }
action-kaibosh = كايبوش (كل الأكلات، وحده)
action-misdeal = إعادة التوزيع
action-call2 = نداء 2 وحده في { $strain }
action-call1 = نداء 1 وحده في { $strain }
action-moon = القمر (وحده) في { $strain }
action-trump = الحكم { $strain }
action-give = إعطاء { $cards }
action-discard = رمي { $cards }
action-play = لعب { $card }

## Calls as a seat's bubble and the buttons show them
bubble-named = { $name } ({ $n })
bubble-pass = باس
bubble-bid = طلب { $n }
bubble-kaibosh = كايبوش!
bubble-misdeal = إعادة توزيع
bubble-call2 = نداء 2 { $strain }
bubble-call1 = نداء 1 { $strain }
bubble-moon = القمر { $strain }
bubble-malzom = ملزوم (5)
bubble-alone = { $bid } · وحده
contract-malzom = { $action } (ملزوم، طلب الموزّع الإجباري)
contract-alone = { $bid }، وحده

## Kout Bo's bids by their names (the rules')
call-name-bid-5 = باب
call-name-bid-6 = ستة
call-name-bid-7 = سبعة
call-name-bid-8 = ثمانية
call-name-bid-9 = بوان

## The table page's bar and frame
bar-brand = calltrump: الصالة
conn-connecting = جارٍ الاتصال…
conn-connected = متصل
conn-closed = مغلق
conn-reconnecting = إعادة الاتصال…
chat-toggle = الدردشة
bar-menu = القائمة: القواعد، السجل، السرعة
bar-rules = القواعد
bar-record = السجل
pace = السرعة
pace-label = كم تبقى الأكلات والأيدي على الطاولة
pace-slow = بطيئة
pace-normal = عادية
pace-fast = سريعة
table-label = الطاولة
center-label = الأوراق على الطاولة
controls-label = خياراتك
hand-label = أوراقك
info-label = اللعبة
host-label = أدوات المضيف
chat-heading = حديث الطاولة
chat-close-label = أغلق الدردشة وعد إلى الطاولة
chat-close = عودة إلى الطاولة
chat-input-label = رسالة إلى الطاولة
chat-placeholder = قل شيئًا
chat-send = أرسل
name-heading = اجلس في مقعدك
name-label = اسمك
name-sit = اجلس

## The table: connection and names
team-us = نحن
team-them = هم
team-letter = الفريق { $team }
team-and = {" "}و
hint-said = تلميح: الأفضل { $action }، { $points } نقطة.
hint-none = لا تلميح لهذا الموقف.
server-closed = أغلق الخادم الاتصال: { $reason }
gone-over = انتهت هذه اللعبة
gone-ended = أُغلقت هذه الطاولة
gone-unknown = لا توجد طاولة على هذا الرابط
gone-damaged = اللعبة المحفوظة لهذه الطاولة تالفة
status-open = الطاولة تنتظر لاعبيها.
status-playing = اللعبة جارية.
status-over = انتهت اللعبة.
status-ended = أغلق المضيف الطاولة.
title-host = { $title } · المضيف
title-watching = { $title } · مشاهدة

## The table: the log
log-new-hand-you = يد جديدة: أنت توزّع.
log-new-hand = يد جديدة: { $seat } يوزّع.
log-undone = { $seat } تراجع عن حركات: { $n }.
log-committed = التوزيع التالي مُلتزَم به: { $commitment }؛ { $seat } يقطع.
log-committed-you = التوزيع التالي مُلتزَم به: { $commitment }؛ أنت تقطع.
log-cut = { $seat } قطع { $n } ورقة.
turn-yours = دورك.
log-so-far = اللعبة حتى الآن:
check-needs-https = هذا المتصفح يفحص التوزيع فقط عبر https أو على localhost
check-failed = فشل الفحص: { $error }

## The table: hands and games
log-undone-one = { $seat } تراجع عن حركة.
hand-thrown-in = الكل باس: أُلغيت اليد.
hand-misdeal = توزيع خاطئ: تُوزَّع اليد من جديد.
hand-result = الأكلات: { $tricks }. النقاط: { $points }.
hand-contract-result = { $seat }: { $contract }. { $result }
score-to = { $a } مقابل { $b }
game-over-draw = انتهت اللعبة: تعادل، { $score }.
list-comma = {"، "}
game-over-won = انتهت اللعبة: فزتم، { $scores }.
game-over-lost = انتهت اللعبة: خسرتم، { $scores }.
game-over-team = انتهت اللعبة: فاز { $team } ({ $members })، { $score }.

## The table: seats
seat-label = { $name }، المقعد { $seat }، الفريق { $team }
team-word = الفريق
badge-dealer = الموزّع
badge-bot = بوت · { $level }
badge-open = مقعد شاغر
badge-standing-in = بوت يلعب عنه
badge-away = غائب · بوت بعد { $s } ث
badge-away-title = يأخذ بوت المقعد عند انتهاء العد
badge-online = متصل
badge-offline = غير متصل
badge-sits-out = خارج اليد
cards-in-hand = { $n } ورقة في اليد
turn-word-auction = يطلب
turn-word-trump-naming = يختار الحكم
turn-word-exchange = يمرّر أوراقًا
turn-word-play = يلعب
turn-word-next = التالي

## The table: the middle
server-away = الخادم لا يرد: نحاول مرة أخرى…
server-paused = متوقفة مؤقتًا: لا يستطيع الخادم الحفظ؛ ننتظر…
connecting-table = جارٍ الاتصال بالطاولة…
trick-you-take = أكلتَ الأكلة
trick-takes = { $seat } أكل الأكلة
last-trick-took = الأكلة الأخيرة: أكلها { $seat }
winning-so-far = {"، الرابحة حتى الآن"}
winning-badge = الرابحة
hide = إخفاء
you-lead = أنت تبدأ
seat-leads = { $seat } يبدأ
download-record = نزّل السجل
replay-game = أعد مشاهدة هذه اللعبة
back-to-lobby = عودة إلى الصالة
gone-heading-over = انتهت هذه اللعبة
gone-heading-ended = أُغلقت هذه الطاولة
gone-heading-unknown = لا توجد طاولة على هذا الرابط
gone-heading-damaged = اللعبة المحفوظة لهذه الطاولة تالفة
gone-link = ربما كُتب الرابط خطأ أو نقص منه شيء.
gone-damaged-kept = لا يمكن متابعتها: يحتفظ بها الخادم كما كانت ليطّلع عليها من يدير الخادم.
gone-empty = أُغلقت قبل توزيع أي يد: لا لعبة لإعادة مشاهدتها.
gone-replay-over = إعادتها تعرض كل الأيدي.
gone-replay-ended = أغلقها المضيف؛ إعادتها تعرض اللعبة حتى تلك اللحظة.
host-ended-table = أغلق المضيف الطاولة
hand-over = انتهت اليد
scores-line = النتيجة: { $scores }
next-hand-you-cut = التالي: اليد { $n }. دورك لقطع الورق.
next-hand-cuts = التالي: اليد { $n }. { $seat } يقطع الورق.

## The table: the turn line
full-stop = {"."}
page-closed = هذه الصفحة مغلقة: { $reason }.
waiting-one = ننتظر لاعبًا واحدًا آخر ليجلس.
waiting-one-host = ننتظر لاعبًا واحدًا آخر ليجلس (أو ابدأ الآن مع البوتات).
waiting-more = ننتظر { $n } لاعبين آخرين ليجلسوا.
waiting-more-host = ننتظر { $n } لاعبين آخرين ليجلسوا (أو ابدأ الآن مع البوتات).
waiting-players = ننتظر أن يجلس اللاعبون.
waiting-players-host = ننتظر أن يجلس اللاعبون (أو ابدأ الآن مع البوتات).
host-closed-table = أغلق المضيف هذه الطاولة.
game-over = انتهت اللعبة.
your-cut = دورك للقطع: اختر كم ورقة ترفع من أعلى الورق.
waiting-cut = ننتظر { $seat } ليقطع الورق…
dealing = جارٍ التوزيع…
hand-over-then = انتهت اليد. { $text }
my-turn-auction = دورك في الطلب.
my-turn-trump-naming = فزت بالطلب: اختر الحكم.
my-turn-play = دورك: العب ورقة.
watch-instead = شاهد بدلًا من ذلك
tab-gone-over = انتهت اللعبة
tab-gone-ended = أُغلقت الطاولة
tab-gone-unknown = لا طاولة
tab-gone-damaged = طاولة تالفة
tab-table = طاولة
tab-your-turn = ▶ دورك · { $title } · calltrump
tab-title = { $title } · calltrump
tab-start = طاولة calltrump
choose-give-one = شريكك يلعب وحده: اختر ورقة واحدة تعطيها { $seat }.
choose-give = شريكك يلعب وحده: اختر { $n } أوراق تعطيها { $seat }.
choose-discard-one = اختر ورقة واحدة لترميها.
choose-discard = اختر { $n } أوراق لترميها.

## The table: the choices
cut = اقطع
cut-between = اقطع بين 1 و{ $most } ورقة.
cut-label = أوراق ترفعها (1 إلى { $most })
cut-left-typed = بقي { $s } ث: سيُقطع { $n } عندها
cut-left-random = بقي { $s } ث، ثم قطع عشوائي
cut-left-label = بقي { $s } ثانية للقطع
name-trump = اختر الحكم
hint-thinking = يفكّر…
hint = تلميح
hint-label = تلميح: أفضل ثلاثة خيارات لك عند البوتات، مما تراه أنت
hint-title = تلميح: النقاط المتوقعة في هذه اليد، لكم ناقص لهم ({ $deals } توزيعة)
take-back = تراجع
hint-best = {"، الأفضل حسب التلميح"}
loner-call2 = وحدك: يعطيك شريكك ورقتين وترمي ورقتين؛ خذ الأكلات الثماني كلها
loner-call1 = وحدك: يعطيك شريكك ورقة وترمي ورقة؛ خذ الأكلات الثماني كلها
loner-moon = القمر: وحدك بالأوراق التي وُزّعت لك؛ خذ الأكلات الثماني كلها
loner-short-call2 = وحده، +2 ورقة
loner-short-call1 = وحده، +1 ورقة
loner-short-moon = وحده، بلا أوراق
your-call = طلبك
level-call2 = نداء 2
level-call1 = نداء 1
level-moon = القمر
bid-about = طلب { $n }: خذ { $n } من الأكلات الثماني مع شريكك
picker-levels = الطلب: كم أكلة، أو اللعب وحدك
picker-strains = { $level }: الحكم
give-cards = أعطِ { $cards }
discard-cards = ارمِ { $cards }
select-one = اختر ورقة واحدة (المختار: { $chosen })
select-cards = اختر { $n } أوراق (المختار: { $chosen })

## The table: the hand
card-playable = {"، يمكن لعبها"}
card-chosen = {"، مختارة"}
card-choosable = {"، يمكن اختيارها"}
card-given = {"، أعطاكها شريكك للتو"}

## The table: whose turn
seat-turn-auction = { $seat } يطلب…
seat-turn-trump-naming = { $seat } يختار الحكم…
seat-turn-exchange = { $seat } يمرّر أوراقًا…
seat-turn-play = { $seat } يلعب…
seat-turn-next = { $seat } التالي…

## The table: the game panel
fact-hand = اليد
fact-hand-waiting = { $n }: ننتظر { $seat } ليقطع
last-hand = اليد السابقة: { $text }
fact-hand-last = { $n } (الأخيرة)
fact-dealer = الموزّع
fact-contract = الطلب
fact-trump = الحكم
fact-sits-out = خارج اليد
fact-tricks = الأكلات
fact-passed = المُمرَّر
last-trick-hide = أخفِ الأكلة الأخيرة
last-trick-show = اعرض الأكلة الأخيرة
goal-target = الأول إلى { $n } نقطة
goal-deals = اليد { $n } من { $of }
scores = النتيجة
fair-deal = توزيع عادل
commitment = الالتزام
commitment-cut = {"، "}قطع { $n } بيد { $seat }
deal-verified = ✓ تم التحقق
deal-not-verified = ✗ لم يتم التحقق
deal-not-checked = لم يُفحص
seed-later = تُكشف البذرة عند نهاية اليد؛ ثم تفحص هذه الصفحة التوزيع.

## The table: the host's panel
host = المضيف
table-closed = الطاولة مغلقة.
start-now = ابدأ الآن (البوتات تأخذ المقاعد الشاغرة)
links-waiting = روابط المقاعد التي تنتظر شخصًا:
sitter-person = شخص
sitter-bot = بوت: { $level }
end-really = هل تغلق الطاولة فعلًا؟
end-table = أغلق الطاولة

## The table: the chat
sender-watching = مشاهد
sender-host = المضيف
new-line = سطر جديد واحد
new-lines = { $n } أسطر جديدة
chat-with-new = الدردشة، { $words }
side-unread = { $n } جديد في الدردشة ↓
side-unread-label = { $words } في الدردشة: اذهب إلى الدردشة
head-unread = {" · "}{ $n } جديد
chat-pending = أنت (يُرسل عند الاتصال):
chat-no-table = لا توجد طاولة هنا
chat-table-closed = الطاولة مغلقة
chat-closed = الدردشة مغلقة
chat-no-more = لا مزيد من الدردشة: { $reason }.

## The table: taking a seat
partner-bot-named = { $name }، بوت ({ $level })
partner-bot = بوت ({ $level })
partner-to-come = لاعب لم يصل بعد
partner-player = لاعب
partner-seat = المقعد { $seat }، { $who }
seat-intro-one = { $game }: تجلس في المقعد { $seat }، الفريق { $team }؛ شريكك { $partners }.
seat-intro = { $game }: تجلس في المقعد { $seat }، الفريق { $team }؛ شركاؤك { $partners }.
chat-name-label = اسمك في الدردشة
set-name = احفظ الاسم
chat-name-set = اسمك في الدردشة: { $name }

## Shared by the pages: games, bot levels, links
game-kaibosh = كايبوش
game-bid-euchre = بيد يوكر
game-kout = كوت بو
variant-standard = القياسية
variant-alexa = ألكسا
variant-simplified = المبسّطة
variant-kout6 = 6 لاعبين
variant-kout4 = 4 لاعبين
length-kout6 = حتى 101 نقطة (51 إذا لم يسجّل الفريق الآخر شيئاً)
length-kout4 = حتى 101 نقطة (51 إذا لم يسجّل الفريق الآخر شيئاً)
level-easy = سهل
level-medium = متوسط
level-hard = صعب
level-expert = خبير
level-rules = قواعد بسيطة
level-random = عشوائي
copy = انسخ
copied = نُسخ
copy-link = انسخ رابط { $label }
link-label = رابط { $label }

## The lobby
lobby-replay-viewer = عارض الإعادات
lobby-heading = العب كايبوش وبيد يوكر وكوت بو مع الأصدقاء والبوتات
lobby-you = أنت
lobby-name-placeholder = يظهر للطاولة
lobby-new-table = طاولة جديدة
lobby-game = اللعبة
lobby-variant = النوع
lobby-rules-of-game = قواعد هذه اللعبة
lobby-seats = المقاعد
lobby-seats-hint = تتناوب المقاعد بين الفريقين A وB حول الطاولة: في الرباعية يجلس الشريكان متقابلين.
lobby-undo = السماح بالتراجع عن حركة (اللعب ضد البوتات)
lobby-hints = السماح بالتلميحات (اللعب ضد البوتات)
lobby-create = أنشئ الطاولة
lobby-ready = الطاولة جاهزة
lobby-go = اذهب إلى الطاولة
lobby-night = سهرة بيد يوكر
lobby-night-about = أربعة لاعبين أو أكثر، أشخاص أو بوتات، يلعبون جولات من 8 توزيعات من بيد يوكر ألكسا: يتغير الشركاء بعد كل جولة، ويتناوب اللاعبون الزائدون على الجلوس خارجها، ولكل لاعب نتيجته.
lobby-start-night = ابدأ سهرة
lobby-join-heading = انضم برابط
lobby-invite-link = رابط الدعوة
lobby-join = انضم
lobby-tables = الطاولات
lobby-no-tables = لا طاولات مفتوحة الآن.
lobby-no-shorter = تُلعب { $game } { $length }؛ لا تعرف القواعد لعبة أقصر بعد.
lobby-options = الخيارات (افتراضات القواعد)
lobby-me = أنا
lobby-friend = صديق (رابط دعوة)
lobby-seat = المقعد { $seat } · الفريق { $team }
lobby-create-failed = تعذّر إنشاء الطاولة: { $error }
lobby-send-links = أرسل لكل صديق رابطه؛ تبدأ اللعبة حين يجلس الجميع.
lobby-starts-when-you-sit = تبدأ اللعبة حين تجلس.
lobby-seat-team = المقعد { $seat } (الفريق { $team })
lobby-spectators = المشاهدون
lobby-sit-at = اجلس في المقعد { $seat }
lobby-open-as-host = افتح الطاولة كمضيف
lobby-paste-link = الصق رابط طاولة: …/table/ID#token=…
lobby-your-seat = مقعدك (محجوز)
lobby-invited = صديق مدعو (لم يصل بعد)
lobby-reserved-for = محجوز لـ{ $name }
lobby-someone = شخص ما
lobby-away = { $name } (غائب)
lobby-waiting = تنتظر لاعبين
lobby-playing = جارية
lobby-back-to-seat = عودة إلى مقعدي
lobby-open-host = افتح كمضيف
lobby-watch = شاهد

## The other pages
lobby = الصالة

## The table: turn signals
notify-title = ▶ دورك في calltrump
turn-signal-sound = صوت عند دوري
turn-signal-vibrate = اهتزاز عند دوري
turn-signal-notify = نبّهني حين تكون الصفحة مخفية
check-commitment-wrong = البذرة لا تعطي الالتزام المعلن قبل القطع
check-commitment = البذرة تعطي الالتزام
check-dealt = البذرة تعطي الالتزام، والقطع يوزّع أوراقك نفسها
check-not-dealt = البذرة والقطع لا يوزّعان الأوراق التي وصلتك

## The server's words by their codes (shown in Arabic; English pages show the server's own)
error-malformed = لم يفهم الخادم رسالة الصفحة.
error-too_fast = رسائل كثيرة دفعة واحدة: تمهّل.
error-hello = حيّت الصفحة الطاولة مرتين.
error-bad_token = مقعد هذا الرابط ليس من مقاعد هذه الطاولة.
error-seat_taken = بوت يلعب في هذا المقعد الآن.
error-not_seated = لا يفعل ذلك إلا لاعب جالس.
error-not_host = لا يفعل ذلك إلا المضيف.
error-status = الطاولة لا تسمح بذلك الآن.
error-version = تقدّمت الطاولة قبل وصول حركتك: تظهر الآن كما هي؛ العب من جديد إن كان الدور لا يزال لك.
error-illegal = هذه الحركة غير مسموحة الآن.
error-bad_seat = لا يوجد مقعد كهذا.
error-no_hint = لا تلميح الآن.
error-chat = لم تُرسل رسالة الدردشة: طويلة جدًا أو سريعة جدًا بعد السابقة.
error-not_saved = تعذّر على الخادم الحفظ: لم يحدث شيء.
error-other = رفض الخادم ذلك.
closing-retry = الخادم يعيد التشغيل
closing-idle = كان الاتصال خاملًا
closing-seat_gone = أُعطي مقعدك لغيرك
closing-table_gone = لم تعد الطاولة موجودة
closing-bad_token = الرابط ليس من روابط هذه الطاولة
closing-too_big = كانت رسالة كبيرة جدًا
closing-other = أغلق الخادم الاتصال
turn-signals = تنبيهات الدور
back-to-night = السهرة: النتائج والجولة التالية
badge-level-easy = سهل
badge-level-medium = متوسط
badge-level-hard = صعب
badge-level-expert = خبير
badge-level-rules = قواعد
badge-level-random = عشوائي

# The table's words for what went wrong (issue 29)
log-cut-random-you = قطع الخادم { $n } ورقة عنك: انتهى وقتك للقطع.
link-refused = حاول أحدهم رابط المقعد { $n } القديم، لكن بوتًا يلعب هذا المقعد الآن: أعد المقعد من لوحة المضيف إن كان سيلعب.
link-refused-open = حاول أحدهم رابط المقعد { $n } القديم: أرسل إليه الرابط الجديد للمقعد.
link-bad = مقعد هذا الرابط ليس من مقاعد هذه الطاولة: ربما نقص منه شيء عند النسخ
link-bad-heading = رابط المقعد هذا لا يعمل
link-bad-help = اطلب من المضيف الرابط كاملًا مرة أخرى، أو شاهد الطاولة في الأثناء.
move-not-sent = الخادم لا يرد: لم تُرسل حركتك. الصفحة تعيد الاتصال؛ حاول بعد لحظة.
chat-stepped-aside = دورك: أُغلقت الدردشة.
chat-stepped-aside-kept = دورك: أُغلقت الدردشة، وما كتبته محفوظ.
chat-not-sent-kept = لم يُرسل ما كتبته؛ ما زال في الخانة.
lobby-nights-label = سهرات تُلعب الآن
lobby-night-set = سهرة · الجولة { $set } من { $sets }
lobby-night-bot = { $name } (بوت)
lobby-follow-night = تابع السهرة
lobby-watch-set = شاهد الجولة
next-set = الجولة التالية
next-set-watch = شاهد الجولة التالية

# The night's page
night-title = سهرة بيد يوكر
night-new-heading = سهرة بيد يوكر ألكسا
night-about = أربعة لاعبين أو أكثر يلعبون جولات من 8 توزيعات. بعد كل جولة يتغير الشركاء؛ وإن زادوا على أربعة يتناوبون على الجلوس خارج جولة، ولكل جلوس 30 نقطة. لكل لاعب نتيجته: صاحب أعلى مجموع في آخر السهرة يفوز.
night-players-legend = اللاعبون بالترتيب (يتبعه التناوب)
night-sit-out-order = إن زادوا على أربعة يجلس اللاعبون خارج الجولات بترتيب القائمة: الأول خارج الجولة الأولى، والتالي خارج الثانية، وهكذا.
night-add-player = أضف لاعبًا
night-sets = الجولات
night-start = ابدأ السهرة
night-on = بدأت السهرة
night-send-links = أرسل لكل لاعب رابطه: يأخذه إلى مقعده في كل جولة، أو إلى المشاهدة حين يجلس خارجها.
night-sheet-caption = أوراق النتائج: نقاط كل جولة (الشريك بين قوسين)، والمجموع
night-player-name = اسم اللاعب
night-person = شخص
night-bot = بوت ({ $level })
night-played-by = يلعبه
night-remove = احذف
night-remove-label = احذف هذا اللاعب
night-could-not-start = تعذّر بدء السهرة.
night-follow-as = تابع السهرة باسم { $name }
night-over-one = انتهت السهرة بعد جولة واحدة.
night-over = انتهت السهرة بعد { $n } جولات.
night-wins = فاز { $name }.
night-shared-win = فوز مشترك: { $names }.
night-stopped = أُوقفت السهرة بعد { $done } من { $sets } جولات.
night-set-of = الجولة { $set } من { $sets }.
night-you-play = { $name }: تلعب هذه الجولة مع { $partner }.
night-you-sit-out = { $name }: تجلس خارج هذه الجولة (30 نقطة).
night-go-to-seat = اذهب إلى مقعدك
night-this-set = هذه الجولة: { $a } و{ $c } ضد { $b } و{ $d }؛ يوزّع { $a } أولًا.
night-sitting-out = خارج الجولة: { $names }.
night-watch-this-set = شاهد هذه الجولة
night-player = اللاعب
night-set-n = الجولة { $n }
night-total = المجموع
night-points-out = { $points } (خارجها)
night-cannot-show = لا يمكن عرض هذه السهرة.

# The lobby's options (the catalogue's words)
option-none = بلا
option-all_pass = حين يمرّر الجميع
option-target = نقاط الفوز
option-deals = التوزيعات
option-rounds = دورات من 4 توزيعات
option-joker_lead = البدء بالجوكر
option-deck = الورق
option-cut = من يقطع
option-meaning-kaibosh-all_pass = ما يحدث حين يمرّر الأربعة كلهم
option-meaning-bid-euchre-all_pass = ما يحدث حين يمرّر الأربعة كلهم
option-meaning-kaibosh-target = النتيجة التي تنهي اللعبة
option-meaning-kaibosh-deals = عدد ثابت من التوزيعات؛ وحده يلغي نقاط الفوز
option-meaning-bid-euchre-deals = طول اللعبة بالتوزيعات
option-meaning-bid-euchre-rounds = طول اللعبة بدورات من 4 توزيعات، لا مع التوزيعات
option-meaning-kout-joker_lead = متى يجوز البدء بالجوكر غير طلب 8 أو 9
option-meaning-kout-deck = ورق الأربعة لاعبين
option-meaning-kaibosh-cut = من يقطع توزيعًا ملتزمًا به
option-meaning-bid-euchre-cut = من يقطع توزيعًا ملتزمًا به
option-meaning-kout-cut = من يقطع توزيعًا ملتزمًا به
option-choice-redeal = وزّع من جديد
option-choice-dealer-must-bid = على الموزّع أن يطلب
option-choice-standard = القاعدة المعتادة
option-choice-contract-only = بالطلب فقط
option-choice-all-trumps-played = بعد خروج كل الحكم العالي
option-choice-trump-ace-played = بعد خروج آص الحكم
option-choice-no-black-sixes = 36 ورقة: بلا ستات سوداء
option-choice-two-undealt = 38 ورقة: ورقتان لا توزّعان
option-choice-right = يمين الموزّع
option-choice-left = يسار الموزّع

## Accounts: the bar and the sign-in page
account-sign-in = تسجيل الدخول
account-sign-out = تسجيل الخروج
account-signed-in-as = مسجَّل الدخول باسم { $name }
account-heading = حسابك
account-delete = احذف حسابي
account-delete-confirm = أتحذف الحساب { $name }؟ تبقى ألعابه باسم «لاعب سابق»، ويصبح اسمه متاحًا لأي أحد.
account-refused = مرفوض: { $error }
sign-in-about = الحساب اختياري: رابط الدعوة يُجلس أي أحد. ومع حساب تعود باسمك.
sign-in-heading = تسجيل الدخول
sign-in-name = الاسم
sign-in-password = كلمة المرور
sign-in-submit = دخول
sign-up-heading = إنشاء حساب
sign-up-about = اسم من حرف إلى 24 حرفًا أو رقمًا، وكلمة مرور من 8 أحرف أو أكثر.
sign-up-submit = أنشئ الحساب

## Accounts: "My tables" in the lobby, and a player's page
lobby-my-tables = طاولاتي
lobby-my-tables-about = المقاعد التي جلستَ فيها وأنت مسجَّل الدخول: افتحها من أي جهاز.
lobby-my-tables-empty = ليس لك مقعد على طاولة تُلعب الآن.
lobby-my-games = ألعابي
my-table-seat = المقعد { $seat } · { $status }
my-table-open = عُد إلى مقعدي
player-title = ألعاب { $name }
player-since = يلعب منذ { $date }.
player-none = لا لاعب بهذا الاسم.
player-tallies = الألعاب الملعوبة
player-game = اللعبة
player-played = لُعبت
player-won = فاز
player-lost = خسر
player-drawn = تعادل
player-no-games = لم تُلعب أي لعبة حتى نهايتها بعد.
player-games = الألعاب
player-unfinished = طاولاتك التي تُلعب الآن
player-result-won = فوز
player-result-lost = خسارة
player-result-drawn = تعادل
player-replay = الإعادة
player-analysis = التحليل
former-player = لاعب سابق
