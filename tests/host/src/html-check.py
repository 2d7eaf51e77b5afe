# What a user checks of a page benchboot writes (report, compare --html):
#   html-check.py FILE
# fails (exit 1, says why) unless the page is well-formed (every element that is not void or
# self-closed is closed, in order; nothing after </html>) and self-contained (no <link>, no
# <script src>, no <img>/<iframe>/<object>, no src= or href= to another place, no url( or
# @import in a style); then prints what it holds, a line each: "plot STAT" per trend plot,
# "changepoint BEFORE AFTER" per change point marked in a plot, "flamegraph" per flame graph,
# "section BEFORE AFTER" per change point's section.
import html.parser, re, sys

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "source", "area", "base"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.out, self.errors, self.ended = [], [], [], False

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        if self.ended:
            self.errors.append(f"<{tag}> after </html>")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> at line {self.getpos()[0]} closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        self.ended = tag == "html"

    def check(self, tag, attrs):
        a = dict(attrs)
        line = self.getpos()[0]
        if tag in ("link", "img", "iframe", "object", "embed") or (tag == "script" and "src" in a):
            self.errors.append(f"line {line}: <{tag}> loads something from outside the page")
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "action") and v and not v.startswith("#"):
                self.errors.append(f"line {line}: {k}={v!r} points outside the page")
        cls = a.get("class") or ""
        if tag == "svg" and "trend" in cls.split():
            self.out.append("plot " + a.get("data-stat", "?"))
        if tag == "g" and cls == "changepoint":
            self.out.append(f"changepoint {a.get('data-before')} {a.get('data-after')}")
        if tag == "g" and cls == "frames":
            self.out.append("flamegraph")
        if tag == "section" and cls == "change":
            self.out.append(f"section {a.get('data-before')} {a.get('data-after')}")


text = open(sys.argv[1], encoding="utf-8").read()
p = Page()
p.feed(text)
p.close()
if p.stack:
    p.errors.append(f"not closed at the end: {p.stack}")
if not text.startswith("<!DOCTYPE html>"):
    p.errors.append("no <!DOCTYPE html> first")
for m in re.finditer(r"url\(|@import", text):
    p.errors.append(f"a style fetches something: {text[m.start():m.start() + 40]!r}")
if p.errors:
    sys.exit("FAIL: " + sys.argv[1] + ":\n  " + "\n  ".join(p.errors[:20]))
print("\n".join(p.out))
