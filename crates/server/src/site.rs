//! Which names the server answers to: the `--public-url` it is reached at, the address
//! it listens on and loopback; a request for any other `Host` (a DNS rebinding) or from
//! a page of any other origin is refused.

use std::net::{IpAddr, SocketAddr};

/// A public URL: `http://` or `https://`, a host and maybe a port, nothing after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    /// `http` or `https`.
    scheme: String,
    /// The host and port as a `Host` header gives them, lowercase.
    authority: String,
}

impl PublicUrl {
    /// Reads `https://cards.example.org` (a trailing `/` is allowed; a path is not: the
    /// server keeps to the root of its address).
    pub fn parse(text: &str) -> Result<PublicUrl, String> {
        let advice = "give the address people open, e.g. https://cards.example.org";
        let (scheme, rest) = text
            .split_once("://")
            .ok_or_else(|| format!("--public-url {text}: no scheme; {advice}"))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(format!(
                "--public-url {text}: the scheme must be http or https; {advice}"
            ));
        }
        let authority = rest.strip_suffix('/').unwrap_or(rest);
        if authority.is_empty() || authority.contains(['/', '?', '#', '@', ' ']) {
            return Err(format!(
                "--public-url {text}: only a host and a port may follow the scheme (the server is at the root of its address); {advice}"
            ));
        }
        Ok(PublicUrl {
            scheme,
            authority: authority.to_ascii_lowercase(),
        })
    }

    /// `https://cards.example.org`, as links begin and browsers send `Origin`.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// The scheme, `http` or `https`.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The host and port, as a `Host` header gives them.
    pub fn authority(&self) -> &str {
        &self.authority
    }
}

/// The names and origins the server answers to.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    /// The configured public URL, if any.
    pub(crate) public: Option<PublicUrl>,
    /// Where the server listens.
    pub(crate) listen: SocketAddr,
}

impl Site {
    /// Whether a `Host` header names this server: the public URL's host, or the port
    /// listened on at loopback (`localhost`, `127.0.0.1`, `[::1]`) or at the address
    /// listened on; listening on every address (0.0.0.0), at any IP address. A name
    /// other than these (which is how DNS rebinding arrives) is refused.
    pub(crate) fn answers_to(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        if self.public.as_ref().is_some_and(|p| p.authority == host) {
            return true;
        }
        let Some((name, port)) = split_host(&host) else {
            return false;
        };
        if port != self.listen.port() {
            return false;
        }
        if name == "localhost" {
            return true;
        }
        let Ok(ip) = name.parse::<IpAddr>() else {
            return false;
        };
        ip.is_loopback() || ip == self.listen.ip() || self.listen.ip().is_unspecified()
    }

    /// Whether a browser's `Origin` is one of this server's own pages: the public URL,
    /// or `http(s)://` and a host [`Site::answers_to`].
    pub(crate) fn own_origin(&self, origin: &str) -> bool {
        let origin = origin.to_ascii_lowercase();
        if self.public.as_ref().is_some_and(|p| p.origin() == origin) {
            return true;
        }
        let Some(host) = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
        else {
            return false;
        };
        // At the public name, only the public URL's own scheme (checked above).
        let public_name = self.public.as_ref().is_some_and(|p| p.authority == host);
        !public_name && self.answers_to(host)
    }
}

/// `name:port` (`[v6]:port` for IPv6) as a name and a port; no port is port 80.
fn split_host(host: &str) -> Option<(&str, u16)> {
    if let Some(rest) = host.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        return match after.strip_prefix(':') {
            Some(port) => Some((name, port.parse().ok()?)),
            None if after.is_empty() => Some((name, 80)),
            None => None,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) => Some((name, port.parse().ok()?)),
        None => Some((host, 80)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(listen: &str, public: Option<&str>) -> Site {
        Site {
            public: public.map(|p| PublicUrl::parse(p).unwrap()),
            listen: listen.parse().unwrap(),
        }
    }

    #[test]
    fn only_loopback_and_the_address_listened_on_are_answered() {
        let local = site("127.0.0.1:8080", None);
        for host in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "LOCALHOST:8080",
        ] {
            assert!(local.answers_to(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "localhost:8081",
            "localhost",
            "192.168.1.5:8080",
            "127.0.0.1:8080.evil.example",
            "[::1]x:8080",
            "",
        ] {
            assert!(!local.answers_to(host), "{host}");
        }
        let everywhere = site("0.0.0.0:8080", None);
        assert!(everywhere.answers_to("192.168.1.5:8080"));
        assert!(!everywhere.answers_to("cards.example.org:8080"));
        let public = site("127.0.0.1:8080", Some("https://Cards.example.org/"));
        assert!(public.answers_to("cards.example.org"));
        assert!(public.answers_to("localhost:8080"));
        assert!(!public.answers_to("evil.example"));
    }

    #[test]
    fn origins_are_the_sites_own() {
        let public = site("127.0.0.1:8080", Some("https://cards.example.org"));
        assert!(public.own_origin("https://cards.example.org"));
        assert!(public.own_origin("http://localhost:8080"));
        assert!(!public.own_origin("http://cards.example.org"));
        assert!(!public.own_origin("https://evil.example"));
        assert!(!public.own_origin("null"));
    }

    #[test]
    fn a_public_url_is_an_origin() {
        assert!(PublicUrl::parse("ftp://x").is_err());
        assert!(PublicUrl::parse("cards.example.org").is_err());
        assert!(PublicUrl::parse("https://cards.example.org/calltrump").is_err());
        assert!(PublicUrl::parse("https://").is_err());
        let url = PublicUrl::parse("HTTPS://cards.example.org:8443/").unwrap();
        assert_eq!(url.origin(), "https://cards.example.org:8443");
    }
}
