// The kmerge extension: starts `kmerge lsp` for .kpatch files, and for
// YAML patch lists in a folder with a kmerge.yaml.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("kmerge").get("path") || "kmerge";
  const serverOptions = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "kpatch" },
      { scheme: "file", language: "yaml", pattern: "**/{overrides,patches}/**/*.{yaml,yml}" },
    ],
    synchronize: {
      // manifests, values, schemas and project files: the server reloads its project
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{yaml,yml,json,kpatch}"),
    },
  };
  client = new LanguageClient("kmerge", "kmerge", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
