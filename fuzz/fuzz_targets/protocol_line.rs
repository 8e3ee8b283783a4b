//! Lines from a host to `calltrump bot`: whatever they hold, the server never panics,
//! and an action it answers is one of the decision's `legal`.

#![no_main]

use calltrump_play::bot_protocol::{BotMessage, BotServer, HostMessage, Reply};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The rules bot is quick and walks every path of the checks before it.
    let mut server = BotServer::new("rules", 0).expect("a known bot");
    for line in text.lines() {
        let reply = server.answer(line);
        if let Reply::Send(BotMessage::Action { action }) = reply {
            let Ok(HostMessage::Decide { legal, .. }) = serde_json::from_str(line) else {
                panic!("an action answered to what is not a decision: {line}");
            };
            let action = action.parse().expect("the bot writes actions in notation");
            assert!(legal.contains(&action), "{action} not in {legal:?}");
        }
    }
});
