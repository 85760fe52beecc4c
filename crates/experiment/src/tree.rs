//! The scenario document as a tree of values that remember where they came from (a span in
//! the file or a `--set` override), so that every later error can point at its source.
//! Tables keep their keys in file order.

use crate::error::{Origin, Result, ScenarioError, Source};
use crate::suggest::did_you_mean;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

#[derive(Clone, Debug)]
pub struct Node {
    pub kind: Kind,
    pub origin: Origin,
}

#[derive(Clone, Debug)]
pub enum Kind {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Datetime(String),
    Array(Vec<Node>),
    Table(Table),
}

#[derive(Clone, Debug, Default)]
pub struct Table {
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    pub key_origin: Origin,
    pub value: Node,
}

impl Table {
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.iter().find(|e| e.key == key).map(|e| &e.value)
    }
    fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        self.entries.iter_mut().find(|e| e.key == key).map(|e| &mut e.value)
    }
}

impl Kind {
    /// How the value's type is named in messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Kind::Str(_) => "a string",
            Kind::Int(_) => "an integer",
            Kind::Float(_) => "a float",
            Kind::Bool(_) => "a boolean",
            Kind::Datetime(_) => "a date-time",
            Kind::Array(_) => "an array",
            Kind::Table(_) => "a table",
        }
    }
}

/// Parses a TOML document; syntax errors name the file, line and column.
pub fn parse_document(src: &Source) -> Result<Table> {
    let doc = DeTable::parse(&src.text).map_err(|e| syntax_error(src, &e, |span| Origin::File(span)))?;
    let node = convert_table(doc.into_inner(), &|span| Origin::File(span))?;
    Ok(node)
}

fn syntax_error(src: &Source, e: &toml::de::Error, origin: impl Fn(std::ops::Range<usize>) -> Origin) -> ScenarioError {
    let message = format!("invalid TOML: {}", e.message().trim());
    match e.span() {
        Some(span) => src.error(&origin(span), "", message),
        None => ScenarioError::file(&src.name, message),
    }
}

type MakeOrigin<'a> = &'a dyn Fn(std::ops::Range<usize>) -> Origin;

fn convert_table(table: DeTable<'_>, origin: MakeOrigin) -> Result<Table> {
    let mut entries = Vec::with_capacity(table.len());
    for (key, value) in table {
        let key_origin = origin(key.span());
        entries.push(Entry { key: key.into_inner().into_owned(), key_origin, value: convert(value, origin)? });
    }
    // The parser's map is ordered by key; file order reads better in outputs and messages.
    entries.sort_by_key(|e| match &e.key_origin {
        Origin::File(span) => span.start,
        Origin::Set(_) => usize::MAX,
    });
    Ok(Table { entries })
}

fn convert(value: Spanned<DeValue<'_>>, origin: MakeOrigin) -> Result<Node> {
    let span = value.span();
    let at = origin(span.clone());
    let kind = match value.into_inner() {
        DeValue::String(s) => Kind::Str(s.into_owned()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(v) => Kind::Int(v),
            // Beyond i64: kept as the number it is, so errors can show it (fields::wrong).
            Err(_) => Kind::Float(i128::from_str_radix(i.as_str(), i.radix()).map_or(f64::INFINITY, |v| v as f64)),
        },
        DeValue::Float(f) => Kind::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Kind::Bool(b),
        DeValue::Datetime(d) => Kind::Datetime(d.to_string()),
        DeValue::Array(a) => Kind::Array(a.into_iter().map(|v| convert(v, origin)).collect::<Result<_>>()?),
        DeValue::Table(t) => Kind::Table(convert_table(t, origin)?),
    };
    Ok(Node { kind, origin: at })
}

/// The table whose keys are names the file chooses (`[links.NAME]`): `--set` may change its
/// entries but not add new ones.
const NAMED_TABLE: &str = "links";

/// The path segment that selects every element of an array (`flows.*.cc=cubic`).
const EVERY_ELEMENT: &str = "*";

/// Applies `KEY=VALUE` overrides (in order) to the document. KEY is a dotted path; a path
/// segment after an array selects an element by index or by its `name` field, or every
/// element with `*`. VALUE is read
/// as a TOML value when it is one (`60`, `true`, `["a", "b"]`, `"x"`) and as a plain string
/// otherwise (`60s`, `reno`); an empty VALUE removes the key (or array element). Missing
/// keys and tables on the way are created (except a new link, see [`NAMED_TABLE`]); what the
/// new value means is checked later like any value in the file.
pub fn apply_overrides(doc: &mut Table, src: &Source) -> Result<()> {
    for (i, text) in src.overrides.iter().enumerate() {
        let at = Origin::Set(i);
        let Some((key, value)) = text.split_once('=') else {
            return Err(src.error(&at, "", "expected KEY=VALUE, e.g. links.bottleneck.rate=50Mbps"));
        };
        let path: Vec<&str> = key.trim().split('.').map(str::trim).collect();
        if path.iter().any(|s| s.is_empty()) {
            return Err(src.error(&at, key, "expected a dotted path of keys, e.g. simulation.duration"));
        }
        let value = value.trim();
        let node = (!value.is_empty()).then(|| parse_override_value(value, i)).transpose()?;
        let mut root = Node { kind: Kind::Table(std::mem::take(doc)), origin: at.clone() };
        let result = set_in(&mut root, &path, "", node, src, &at);
        if let Kind::Table(t) = root.kind {
            *doc = t;
        }
        result?;
    }
    Ok(())
}

fn parse_override_value(text: &str, index: usize) -> Result<Node> {
    if let Ok(v) = DeValue::parse(text) {
        return convert(v, &move |_| Origin::Set(index));
    }
    Ok(Node { kind: Kind::Str(text.to_string()), origin: Origin::Set(index) })
}

/// Sets (or with `None` removes) `path` below `node`; `walked` is the dotted path of `node`
/// itself, for messages.
fn set_in(node: &mut Node, path: &[&str], walked: &str, value: Option<Node>, src: &Source, at: &Origin) -> Result<()> {
    let seg = path[0];
    let here = if walked.is_empty() { seg.to_string() } else { format!("{walked}.{seg}") };
    let last = path.len() == 1;
    let type_name = node.kind.type_name();
    let child = match &mut node.kind {
        Kind::Table(t) => {
            let present = t.entries.iter().position(|e| e.key == seg);
            match (present, last, value.is_none()) {
                (Some(i), true, true) => {
                    t.entries.remove(i);
                    return Ok(());
                }
                (None, _, true) => {
                    let hint = did_you_mean(seg, t.entries.iter().map(|e| e.key.as_str()));
                    return Err(src.error(at, &here, format!("nothing to remove: no such key{hint}")));
                }
                (None, _, false) if seg == EVERY_ELEMENT => {
                    return Err(src.error(at, &here, format!("'*' selects every element of an array, and '{walked}' is not one here (name the entry instead)")));
                }
                (None, _, false) if walked == NAMED_TABLE => {
                    // A typo in a link's name would otherwise add a half-made link and fail
                    // later on its missing `from`; --set changes links, it does not add them.
                    let names: Vec<&str> = t.entries.iter().map(|e| e.key.as_str()).collect();
                    let hint = did_you_mean(seg, names.iter().copied());
                    return Err(src.error(at, &here, format!("no link '{seg}' in the scenario{hint}; --set changes the links the file has ({}), it cannot add one", names.join(", "))));
                }
                (None, _, false) => {
                    let kind = Kind::Table(Table::default());
                    t.entries.push(Entry { key: seg.to_string(), key_origin: at.clone(), value: Node { kind, origin: at.clone() } });
                }
                _ => {}
            }
            t.get_mut(seg).expect("present or inserted above")
        }
        Kind::Array(items) if seg == EVERY_ELEMENT => {
            // `flows.*.delayed_ack=false`: the same change to every element, so that one
            // override means the same in scenarios whose flows have different names.
            if items.is_empty() || (last && value.is_none()) {
                return Err(src.error(at, &here, format!("'{walked}' has {} element(s); '*' changes a key in every element, it does not remove them", items.len())));
            }
            for (i, item) in items.iter_mut().enumerate() {
                let here = if walked.is_empty() { i.to_string() } else { format!("{walked}.{i}") };
                match (last, value.clone()) {
                    (true, Some(v)) => *item = v,
                    (_, v) => set_in(item, &path[1..], &here, v, src, at)?,
                }
            }
            return Ok(());
        }
        Kind::Array(items) => {
            let names: Vec<String> = items.iter().filter_map(element_name).collect();
            let index = seg.parse::<usize>().ok().filter(|&i| i < items.len());
            let index = index.or_else(|| items.iter().position(|n| element_name(n).as_deref() == Some(seg)));
            let Some(index) = index else {
                let named = if names.is_empty() { String::new() } else { format!(" or one of the names {}", names.join(", ")) };
                let hint = did_you_mean(seg, names.iter().map(String::as_str));
                return Err(src.error(at, &here, format!("no such element{hint}: '{walked}' has {} element(s); use an index below {}{named}", items.len(), items.len())));
            };
            if last && value.is_none() {
                items.remove(index);
                return Ok(());
            }
            &mut items[index]
        }
        _ => return Err(src.error(at, walked, format!("is {type_name}, not a table, so it has no field '{seg}'"))),
    };
    match (last, value) {
        (true, Some(v)) => {
            *child = v;
            Ok(())
        }
        (_, value) => set_in(child, &path[1..], &here, value, src, at),
    }
}

fn element_name(node: &Node) -> Option<String> {
    match &node.kind {
        Kind::Table(t) => match t.get("name").map(|n| &n.kind) {
            Some(Kind::Str(s)) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str, sets: &[&str]) -> Result<(Table, Source)> {
        let src = Source::new("t.toml", text, sets.iter().map(|s| s.to_string()).collect());
        let mut t = parse_document(&src)?;
        apply_overrides(&mut t, &src)?;
        Ok((t, src))
    }

    fn lookup<'a>(t: &'a Table, path: &[&str]) -> &'a Node {
        let mut node = t.get(path[0]).unwrap();
        for seg in &path[1..] {
            node = match &node.kind {
                Kind::Table(t) => t.get(seg).unwrap(),
                Kind::Array(a) => &a[seg.parse::<usize>().unwrap()],
                _ => panic!(),
            };
        }
        node
    }

    #[test]
    fn keys_keep_file_order() {
        let (t, _) = doc("zeta = 1\nalpha = 2\n[links.b]\n[links.a]\n", &[]).unwrap();
        let keys: Vec<_> = t.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["zeta", "alpha", "links"]);
        let Kind::Table(links) = &t.get("links").unwrap().kind else { panic!() };
        let keys: Vec<_> = links.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["b", "a"]);
    }

    #[test]
    fn overrides_replace_insert_and_select_by_name() {
        let text = "[simulation]\nduration = \"1s\"\n[[flows]]\nname = \"a\"\n[[flows]]\nname = \"b\"\n";
        let (t, _) = doc(text, &["simulation.duration=60s", "simulation.seed=7", "flows.b.cc=cubic", "flows.0.count=3", "x.y=[1, 2]"]).unwrap();
        assert!(matches!(&lookup(&t, &["simulation", "duration"]).kind, Kind::Str(s) if s == "60s"));
        assert!(matches!(lookup(&t, &["simulation", "seed"]).kind, Kind::Int(7)));
        assert!(matches!(&lookup(&t, &["flows", "1", "cc"]).kind, Kind::Str(s) if s == "cubic"));
        assert!(matches!(lookup(&t, &["flows", "0", "count"]).kind, Kind::Int(3)));
        assert!(matches!(&lookup(&t, &["x", "y"]).kind, Kind::Array(a) if a.len() == 2));
        assert_eq!(lookup(&t, &["simulation", "duration"]).origin, Origin::Set(0));
    }

    #[test]
    fn a_star_changes_every_element() {
        let text = "[[flows]]\nname = \"a\"\n[[flows]]\nname = \"b\"\ncc = \"cubic\"\n";
        let (t, _) = doc(text, &["flows.*.delayed_ack=false"]).unwrap();
        for i in ["0", "1"] {
            assert!(matches!(lookup(&t, &["flows", i, "delayed_ack"]).kind, Kind::Bool(false)));
        }
        assert!(matches!(&lookup(&t, &["flows", "1", "cc"]).kind, Kind::Str(s) if s == "cubic"));
        let e = doc(text, &["flows.*="]).unwrap_err();
        assert!(e.message.contains("does not remove"), "{e}");
        let e = doc("flows = []\n[simulation]\nduration = \"1s\"\n", &["flows.*.cc=reno"]).unwrap_err();
        assert!(e.message.contains("0 element(s)"), "{e}");
        let e = doc("[simulation]\nduration = \"1s\"\n", &["flows.*.cc=reno"]).unwrap_err();
        assert!(e.message.contains("every element of an array"), "{e}");
    }

    #[test]
    fn an_empty_value_removes() {
        let text = "[links.a]\nqueue = \"red\"\nred_min = 5\n[[flows]]\nname = \"a\"\n[[flows]]\nname = \"b\"\n";
        let (t, _) = doc(text, &["links.a.red_min=", "flows.a="]).unwrap();
        let Kind::Table(a) = &lookup(&t, &["links", "a"]).kind else { panic!() };
        assert!(a.get("red_min").is_none() && a.get("queue").is_some());
        assert!(matches!(&t.get("flows").unwrap().kind, Kind::Array(f) if f.len() == 1));
        let e = doc(text, &["links.a.red_mni="]).unwrap_err();
        assert!(e.message.contains("nothing to remove") && e.message.contains("did you mean 'red_min'?"), "{e}");
    }

    #[test]
    fn bad_overrides_name_the_override() {
        let text = "[[flows]]\nname = \"a\"\n[simulation]\nduration = \"1s\"\n";
        let e = doc(text, &["flows.zz.cc=reno"]).unwrap_err();
        assert_eq!(e.location, "--set flows.zz.cc=reno");
        assert!(e.message.contains("one of the names a"), "{e}");
        let e = doc("[[flows]]\nname = \"reno\"\n", &["flows.renoo.cc=cubic"]).unwrap_err();
        assert!(e.message.contains("no such element (did you mean 'reno'?)"), "{e}");
        let e = doc(text, &["simulation.duration.x=1"]).unwrap_err();
        assert!(e.message.contains("is a string, not a table"), "{e}");
        let e = doc(text, &["duration"]).unwrap_err();
        assert!(e.message.contains("KEY=VALUE"), "{e}");
    }

    #[test]
    fn a_misspelt_link_name_is_refused_with_a_suggestion() {
        let text = "[links.bottleneck]\nrate = \"10Mbps\"\n[links.access]\nrate = \"1Gbps\"\n";
        let e = doc(text, &["links.botleneck.rate=5Mbps"]).unwrap_err();
        assert_eq!(e.location, "--set links.botleneck.rate=5Mbps");
        assert!(e.message.contains("no link 'botleneck'") && e.message.contains("did you mean 'bottleneck'?"), "{e}");
        assert!(e.message.contains("(bottleneck, access)") && !e.message.contains("from"), "{e}");
        // New keys inside an existing link, and new top-level tables, are still added.
        let (t, _) = doc(text, &["links.bottleneck.queue=red", "links.access.reverse.rate=1Mbps", "simulation.seed=3"]).unwrap();
        assert!(matches!(&lookup(&t, &["links", "access", "reverse", "rate"]).kind, Kind::Str(s) if s == "1Mbps"));
        assert!(matches!(lookup(&t, &["simulation", "seed"]).kind, Kind::Int(3)));
    }

    #[test]
    fn syntax_errors_have_a_line() {
        let e = doc("a = 1\nb = = 2\n", &[]).unwrap_err();
        assert!(e.location.starts_with("t.toml:2:"), "{e}");
        assert!(e.message.starts_with("invalid TOML"), "{e}");
    }
}
