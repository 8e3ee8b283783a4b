//! Pages and assets, embedded in the binary: the lobby, the table, and the rules
//! rendered from calltrump's own rules in `docs/rules/`.

use axum::extract::{Path, Query};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use calltrump_engine::catalog::RulesDocument;
use calltrump_engine::GameKind;

/// The rules pages: URL name, title and page; each game's from the engine's catalogue,
/// then the glossary.
fn rules_pages() -> impl Iterator<Item = (&'static str, &'static str, RulesDocument)> {
    let glossary = RulesDocument {
        file: "glossary.md",
        text: include_str!("../../../docs/rules/glossary.md"),
    };
    GameKind::ALL
        .into_iter()
        .map(|game| (game.name(), game.title(), game.rules_document()))
        .chain(std::iter::once(("glossary", "Glossary", glossary)))
}

/// The pages and static files under `/assets/`: name, content type, content.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "leaderboard.html",
        "text/html; charset=utf-8",
        include_str!("../assets/leaderboard.html"),
    ),
    (
        "leaderboard.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/leaderboard.js"),
    ),
    (
        "chart.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/chart.js"),
    ),
    (
        "lobby.html",
        "text/html; charset=utf-8",
        include_str!("../assets/lobby.html"),
    ),
    (
        "table.html",
        "text/html; charset=utf-8",
        include_str!("../assets/table.html"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/common.js"),
    ),
    (
        "cards.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/cards.js"),
    ),
    (
        "fairdeal.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/fairdeal.js"),
    ),
    (
        "icon.svg",
        "image/svg+xml",
        include_str!("../assets/icon.svg"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "night.html",
        "text/html; charset=utf-8",
        include_str!("../assets/night.html"),
    ),
    (
        "night.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/night.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/lobby.js"),
    ),
    (
        "table.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/table.js"),
    ),
    (
        "replay.html",
        "text/html; charset=utf-8",
        include_str!("../assets/replay.html"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/replay.js"),
    ),
    (
        "drawing.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/drawing.js"),
    ),
    (
        "account.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/account.js"),
    ),
    (
        "rules-bar.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/rules-bar.js"),
    ),
    (
        "sign-in.html",
        "text/html; charset=utf-8",
        include_str!("../assets/sign-in.html"),
    ),
    (
        "sign-in.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/sign-in.js"),
    ),
    (
        "player.html",
        "text/html; charset=utf-8",
        include_str!("../assets/player.html"),
    ),
    (
        "player.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/player.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/i18n.js"),
    ),
    (
        "fluent.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/fluent.js"),
    ),
    // The pages' strings, in Fluent (`.ftl`) files: English and Arabic.
    (
        "en.ftl",
        "text/plain; charset=utf-8",
        include_str!("../assets/en.ftl"),
    ),
    (
        "ar.ftl",
        "text/plain; charset=utf-8",
        include_str!("../assets/ar.ftl"),
    ),
];

/// The rules pages written in Arabic too (in calltrump's own words): URL name and page.
const ARABIC_RULES: &[(&str, RulesDocument)] = &[(
    GameKind::Kout.name(),
    RulesDocument {
        file: "ar/kout-bo.md",
        text: include_str!("../../../docs/rules/ar/kout-bo.md"),
    },
)];

/// `?lang=ar`: the language a rules page is asked in.
/// The query of a rules page.
#[derive(serde::Deserialize, Default)]
pub struct LangQuery {
    /// `en` or `ar`; any other is English.
    lang: Option<String>,
}

/// `GET /`: the lobby.
pub async fn lobby() -> Response {
    serve_asset("lobby.html")
}

/// `GET /table/{id}`: a table, for a seat (its token in the URL's fragment), the host or
/// a spectator.
pub async fn table_page(Path(_id): Path<String>) -> Response {
    serve_asset("table.html")
}

/// `GET /replay` and `GET /replay/{id}`: the replay viewer, of an uploaded record or a
/// finished table's.
pub async fn replay_page() -> Response {
    serve_asset("replay.html")
}

/// `GET /sign-in`: signing in, creating an account, and one's account.
pub async fn sign_in_page() -> Response {
    serve_asset("sign-in.html")
}

/// `GET /players/{name}`: a player's games (the page asks `GET /api/players/{name}`).
pub async fn player_page(Path(_name): Path<String>) -> Response {
    serve_asset("player.html")
}

/// `GET /leaderboard/{game}`: a game family's leaderboard (its script reads the API).
pub async fn leaderboard_page(Path(_game): Path<String>) -> Response {
    serve_asset("leaderboard.html")
}

/// `GET /assets/{file}`.
pub async fn asset(Path(file): Path<String>) -> Response {
    serve_asset(&file)
}

/// Environment variable naming a folder to read the assets from instead of the embedded
/// copies, so the browser client can be edited without rebuilding the server.
const ASSETS_DIR_VAR: &str = "CALLTRUMP_ASSETS_DIR";

fn serve_asset(file: &str) -> Response {
    let Some((_, kind, body)) = ASSETS.iter().find(|(name, _, _)| *name == file) else {
        return (StatusCode::NOT_FOUND, format!("no asset {file}")).into_response();
    };
    let headers = [
        (header::CONTENT_TYPE, *kind),
        // Assets change with the binary: always revalidate, so an upgrade is picked up.
        (header::CACHE_CONTROL, "no-cache"),
    ];
    if let Some(dir) = std::env::var_os(ASSETS_DIR_VAR) {
        if let Ok(text) = std::fs::read_to_string(std::path::Path::new(&dir).join(file)) {
            return (headers, text).into_response();
        }
    }
    (headers, *body).into_response()
}

/// Wraps `body` in the site's page, in `lang` (`ar` is written right to left), with
/// links to the page in each language (`path` is the page's own).
fn page(title: &str, body: &str, lang: &str, path: &str) -> String {
    let title = escape(title);
    let dir = if lang == "ar" { "rtl" } else { "ltr" };
    let (home, rules) = if lang == "ar" {
        ("calltrump", "القواعد")
    } else {
        ("calltrump", "rules")
    };
    format!(
        "<!doctype html>\n<html lang=\"{lang}\" dir=\"{dir}\" data-page-lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · calltrump</title><link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\">\
         <link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body class=\"rules\"><nav id=\"bar-nav\"><a href=\"/\">{home}</a> · <a href=\"/rules\">{rules}</a> · \
         <a href=\"{path}?lang=en\" lang=\"en\">English</a> · <a href=\"{path}?lang=ar\" lang=\"ar\">العربية</a></nav>\
         <main>{body}</main><script type=\"module\" src=\"/assets/rules-bar.js\"></script></body></html>"
    )
}

/// `text` safe inside HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `GET /rules`: the games.
pub async fn rules_index() -> Html<String> {
    let items: String = rules_pages()
        .map(|(name, title, _)| format!("<li><a href=\"/rules/{name}\">{title}</a></li>"))
        .collect();
    Html(page(
        "Rules",
        &format!("<h1>The rules</h1><ul>{items}</ul>"),
        "en",
        "/rules",
    ))
}

/// `GET /rules/{game}`: one game's rules as a page; `?lang=ar` in Arabic where written.
pub async fn rules_page(Path(game): Path<String>, Query(query): Query<LangQuery>) -> Response {
    let game = game.to_ascii_lowercase();
    // A page is also found by its file's name: `kout-bo` is Kout Bo's.
    let found = rules_pages().find(|(name, _, document)| {
        *name == game || document.file.strip_suffix(".md") == Some(game.as_str())
    });
    match found {
        Some((name, title, document)) => {
            let path = format!("/rules/{}", escape(&game));
            let arabic = ARABIC_RULES.iter().find(|(page, _)| *page == name);
            match (query.lang.as_deref(), arabic) {
                (Some("ar"), Some((_, document))) => {
                    Html(page(title, &render(document.text), "ar", &path)).into_response()
                }
                _ => Html(page(title, &render(document.text), "en", &path)).into_response(),
            }
        }
        None => (
            StatusCode::NOT_FOUND,
            Html(page(
                "No such game",
                &format!(
                    "<h1>No rules for \"{}\"</h1><p>See <a href=\"/rules\">the games</a>.</p>",
                    escape(&game)
                ),
                "en",
                "/rules",
            )),
        )
            .into_response(),
    }
}

/// Markdown to HTML; links between the rules pages become links between the pages.
fn render(markdown: &str) -> String {
    use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag};
    let parser = Parser::new_ext(markdown, Options::ENABLE_TABLES).map(|event| match event {
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest = dest_url.to_string();
            let target = match dest.split_once('#') {
                Some((file, anchor)) => (file.to_string(), format!("#{anchor}")),
                None => (dest.clone(), String::new()),
            };
            let page_name = match target.0.as_str() {
                "README.md" => Some(""),
                file => rules_pages()
                    .find(|(_, _, document)| document.file == file)
                    .map(|(name, _, _)| name),
            };
            let dest_url = match page_name {
                Some("") => CowStr::from(format!("/rules{}", target.1)),
                Some(name) => CowStr::from(format!("/rules/{name}{}", target.1)),
                None => dest_url,
            };
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            })
        }
        // Raw HTML in the Markdown (variant markers) is not passed through.
        Event::Html(_) | Event::InlineHtml(_) => Event::Text(CowStr::from("")),
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, parser);
    out
}
