import { readFileSync } from "node:fs";
import { redocBundlePath } from "../../assets.js";
import type { RouteFactory } from "../types.js";
import { operationRoute } from "../operation-route.js";

// Redoc's standalone bundle is served from our own origin so the page works offline; without JavaScript the page
// points at the contract itself.

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Field-Service Dispatch API reference</title>
</head>
<body>
  <noscript>
    <p>This API reference is drawn by JavaScript (Redoc), which is off in this browser. The contract it shows is
    plain text: <a href="/openapi.yaml">/openapi.yaml</a> (or <a href="/openapi.json">/openapi.json</a>); where to
    start is at <a href="/">/</a>.</p>
  </noscript>
  <div id="redoc"></div>
  <script src="/docs/redoc.standalone.js"></script>
  <script>Redoc.init("/openapi.json", { hideDownloadButton: false, expandResponses: "200,201" }, document.getElementById("redoc"));</script>
</body>
</html>
`;

// The bundle's footer logo is the page's only outside request: drop it so /docs loads nothing from elsewhere.
const readBundle = () =>
  readFileSync(redocBundlePath(), "utf8").replaceAll(
    "https://cdn.redoc.ly/redoc/logo-mini.svg",
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
  );

const route: RouteFactory = () => {
  let bundle: string | undefined; // read on first request: a megabyte most servers never serve
  return [
    operationRoute("getDocs", { handler: (_r, h) => h.response(page).type("text/html; charset=utf-8") }),
    operationRoute("getDocsBundle", {
      handler: (_r, h) =>
        h
          .response((bundle ??= readBundle()))
          .type("text/javascript; charset=utf-8")
          .header("cache-control", "public, max-age=86400"),
    }),
  ];
};
export default route;
