// The page of `cardlogic serve`. The server is the referee: the page shows its state and offers only the
// choices it lists (legal asks, claimers, passes), and every change goes back to it with the version it saw.
"use strict";

const TOKEN = document.body.dataset.token;
let S = null; // the last state the server sent
// what was entered of a set-up survives a reload of its tab (or a crash of the browser) until the game starts
const DRAFT = "cardlogic-setup";
let setup = JSON.parse(sessionStorage.getItem(DRAFT)) || { game: "literature", players: [], teams: [], deck: "no-8s",
  sets: null, dealer: null, rules: {}, me: null, hand: [], trump: null };
let checked = null; // what /api/setup/check said of `setup`
let setupError = null;
checkSetup.asked = 0;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "class") node.className = value;
    else if (key === "style") Object.assign(node.style, value); // through the CSSOM: the page's CSP bans style attributes
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value != null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child != null) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

async function call(method, path, body) {
  const options = { method, headers: { "X-Token": TOKEN } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify({ version: S && S.version, ...body });
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    toast("the server cannot be reached: is cardlogic serve still running?", true);
    return null;
  }
  const answer = await response.json().catch(() => ({ error: response.status === 403 // a bare "forbidden"
    ? "the server refuses this page's token (it restarted without --token?): open the address it printed"
    : `the server answered ${response.status}` }));
  if (response.ok) return answer;
  if (response.status === 409 && answer.state) {
    S = answer.state;
    closeSheet();
    render();
  }
  toast(answer.error || `the server answered ${response.status}`, true);
  return Object.assign(answer, { failed: true });
}

async function change(path, body, done) {
  const answer = await call("POST", path, body);
  if (!answer || answer.failed) return false;
  S = answer;
  closeSheet();
  render();
  if (done) toast(done);
  return true;
}

function toast(text, bad) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.className = bad ? "bad" : "";
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, bad ? 6000 : 2500);
}

function cardButton(card, attrs) {
  const red = /[HD]$/.test(card) ? " red" : "";
  return el("button", { ...attrs, class: `card${red}${attrs && attrs.class ? " " + attrs.class : ""}` }, card);
}

function section(title, ...children) {
  return el("section", {}, el("h2", {}, title), ...children);
}

// -- set-up -------------------------------------------------------------------------------------------------------

async function checkSetup() {
  sessionStorage.setItem(DRAFT, JSON.stringify(setup)); // every entry of the set-up comes through here
  const rules = Object.entries(setup.rules).map(([k, v]) => `${k}=${v}`).join(" ");
  const body = setup.game === "knektpass"
    ? { game: "knektpass", players: setup.players, dealer: setup.dealer, rules, trump: setup.trump, me: setup.me,
      hand: null }
    : { players: setup.players, teams: setup.teams.length ? setup.teams : null, deck: setup.deck,
      sets: setup.sets, dealer: setup.dealer, rules, me: setup.me, hand: null };
  // the hand goes to be checked once it has as many cards as the deal gives: until then it is simply not done
  const handComplete = () =>
    checked && checked.me && checked.me === setup.me && setup.hand.length === checked.hand_size;
  if (handComplete()) body.hand = setup.hand;
  const asked = ++checkSetup.asked; // taps outrun answers: only the answer to the latest set-up counts
  const answer = await call("POST", "/api/setup/check", body);
  if (!answer || asked !== checkSetup.asked) return body;
  setupError = answer.failed ? answer : null;
  if (!answer.failed) checked = answer;
  else if (answer.field === "players" || answer.field === "teams") checked = null;
  render();
  // a hand entered before a reload is checked once the first answer since gives the hand's size
  return body.hand === null && !answer.failed && handComplete() ? checkSetup() : body;
}

function setupField(name) {
  return setupError && setupError.field === name ? el("p", { class: "error" }, setupError.error) : null;
}

// the players in seat order, as every game's set-up starts; false until the server has checked them
function playersInput(main, hint) {
  const names = el("input", { type: "text", id: "players", value: setup.players.join(" "),
    placeholder: setup.game === "knektpass" ? "Ann Bob Cat" : "Ann Bob Cat Dan Eve Fay", autocomplete: "off",
    "aria-label": "players in seat order" });
  names.addEventListener("change", () => {
    setup.players = names.value.split(/\s+/).filter(Boolean);
    setup.teams = [];
    setup.dealer = setup.players.includes(setup.dealer) ? setup.dealer : null;
    setup.me = setup.players.includes(setup.me) ? setup.me : null;
    checkSetup();
  });
  main.append(section("Players in seat order", names, setupField("players"), el("p", { class: "hint" }, hint)));
  if (!checked) {
    if (!setupError && setup.players.length) checkSetup();
    return false;
  }
  return true;
}

function pickOne(title, names, chosen, pick, field) {
  return section(title, el("div", { class: "row" }, names.map((name) =>
    el("button", { class: name === chosen ? "on" : "", onclick: () => pick(name) }, name))), setupField(field));
}

// a deck's cards in a grid, a row a suit, each tapped on or off
function deckGrid(cards, isOn, tap, id) {
  const suits = ["S", "H", "D", "C"].map((suit) => cards.filter((card) => card.endsWith(suit)));
  return el("div", { class: "grid", id }, suits.filter((row) => row.length).map((row) =>
    el("div", { class: "cards" }, row.map((card) =>
      cardButton(card, { class: isOn(card) ? "on" : "", "aria-pressed": String(isOn(card)), onclick: () => tap(card) })))));
}

function renderKnektpassSetup(main) {
  const choices = S.games.knektpass;
  if (!playersInput(main, "2 or more names, separated by spaces, in the order you sit (the deal passes left).")) {
    return;
  }
  main.append(pickOne("Dealer", checked.players, setup.dealer, (name) => { setup.dealer = name; checkSetup(); },
    "dealer"));
  const rule = (key, values) => el("div", { class: "row" }, el("span", { class: "hint" }, key), values.map((value) =>
    el("button", { class: (setup.rules[key] || values[0]) === value ? "on" : "",
      onclick: () => { setup.rules[key] = value; setup.trump = null; setup.hand = []; checkSetup(); } }, value)));
  const number = (key) => {
    const input = el("input", { type: "number", id: `rule-${key}`, min: "0", inputmode: "numeric",
      value: setup.rules[key] ?? choices.numbers[key], "aria-label": key });
    input.addEventListener("change", () => { setup.rules[key] = input.value; checkSetup(); });
    return el("label", { class: "number" }, el("span", { class: "hint" }, key), input);
  };
  main.append(section("House rules", ...Object.entries(choices.switches).map(([key, values]) => rule(key, values)),
    el("div", { class: "row" }, Object.keys(choices.numbers).map(number)), setupField("rules")));
  if (!setup.dealer) return;
  main.append(section("The turned card (trumps)", deckGrid(checked.deck, (card) => card === setup.trump, (card) => {
    setup.trump = card;
    setup.hand = setup.hand.filter((c) => c !== card);
    checkSetup();
  }, "trump-grid"), setupField("trump")));
  if (!checked.trump) return;
  main.append(pickOne("Who am I?", checked.players, setup.me, (name) => { setup.me = name; checkSetup(); }, "me"));
  if (!checked.me) return;
  const count = `${setup.hand.length} of ${checked.hand_size} cards`;
  main.append(section(`My hand: ${count}`, deckGrid(checked.deck.filter((card) => card !== checked.trump),
    (card) => setup.hand.includes(card), (card) => {
      setup.hand = setup.hand.includes(card) ? setup.hand.filter((c) => c !== card) : [...setup.hand, card];
      checkSetup();
    }, "hand-grid"), setup.hand.length === checked.hand_size ? setupField("hand") : null));
  main.append(startButton());
}

function startButton() {
  return el("p", {}, el("button", { class: "primary", id: "start", disabled: !checked.complete,
    onclick: async () => {
      const body = await checkSetup();
      if (checked.complete) change("/api/setup", body, "the game is on; every event is autosaved");
    } }, "Start the game"));
}

function renderSetup(main) {
  document.getElementById("status").textContent = "New game: set-up";
  document.getElementById("score").textContent = "";
  main.append(section("Game", el("div", { class: "row", id: "games" }, Object.keys(S.games).map((game) =>
    el("button", { class: game === setup.game ? "on" : "", onclick: () => {
      if (game === setup.game) return;
      setup = { ...setup, game, teams: [], rules: {}, hand: [], trump: null };
      checked = null;
      setupError = null;
      render();
      if (setup.players.length) checkSetup();
    } }, game[0].toUpperCase() + game.slice(1))))));
  if (setup.game === "knektpass") return renderKnektpassSetup(main);
  if (!playersInput(main, "4 to 12 names, separated by spaces, in the order you sit.")) return;
  // taps outrun answers: each tap changes what was tapped so far, not what the server last confirmed
  const teams = () => (setup.teams.length ? setup.teams : checked.teams);
  main.append(section("Teams (tap a seat to move it)", el("div", { class: "row" }, checked.players.map((name, i) =>
    el("button", { class: `seat t${teams()[i]}`, onclick: () => {
      setup.teams = teams().map((t, j) => (j === i ? 1 - t : t));
      checkSetup();
    } }, name, ` · team ${teams()[i] + 1}`))), setupField("teams")));
  main.append(section("Deck", el("div", { class: "row" }, S.decks.map((deck) =>
    el("button", { class: deck === setup.deck ? "on" : "", onclick: () => {
      setup.deck = deck;
      setup.sets = null;
      setup.hand = [];
      checkSetup();
    } }, deck))), setupField("deck")));
  const kept = () => setup.sets ?? checked.sets.map((set) => set.name);
  main.append(section("Sets in play (tap to leave one out)", el("div", { class: "row", id: "sets" },
    checked.deck_sets.map((name) => el("button", { class: kept().includes(name) ? "on" : "", onclick: () => {
      const now = kept();
      setup.sets = now.includes(name) ? now.filter((k) => k !== name) : checked.deck_sets.filter((k) =>
        k === name || now.includes(k));
      setup.hand = [];
      checkSetup();
    } }, name))), setupField("sets")));
  main.append(section("Dealer (asks first)", el("div", { class: "row" }, checked.players.map((name) =>
    el("button", { class: name === setup.dealer ? "on" : "", onclick: () => { setup.dealer = name; checkSetup(); } },
      name))), setupField("dealer")));
  if (!setup.dealer) return;
  const rule = (key, values) => el("div", { class: "row" }, el("span", { class: "hint" }, key), values.map((value) =>
    el("button", { class: (setup.rules[key] || values[0]) === value ? "on" : "",
      onclick: () => { setup.rules[key] = value; checkSetup(); } }, value)));
  main.append(section("House rules", rule("wrong-claim", S.wrong_claim), rule("bluff", ["off", "on"]),
    rule("must-declare", ["off", "on"]), rule("high-double", ["off", "on"]), setupField("rules")));
  main.append(section("Who am I?", el("div", { class: "row" }, checked.players.map((name) =>
    el("button", { class: name === setup.me ? "on" : "", onclick: () => {
      setup.me = name;
      setup.hand = [];
      checkSetup();
    } }, name))), setupField("me")));
  if (!checked.me) return;
  const grid = checked.sets.map((set) => el("div", { class: "cards" }, set.cards.map((card) =>
    cardButton(card, { class: setup.hand.includes(card) ? "on" : "", "aria-pressed": String(setup.hand.includes(card)),
      onclick: () => {
        setup.hand = setup.hand.includes(card) ? setup.hand.filter((c) => c !== card) : [...setup.hand, card];
        checkSetup();
      } }))));
  const count = `${setup.hand.length} of ${checked.hand_size} cards`;
  main.append(section(`My hand: ${count}`, el("div", { class: "grid" }, grid),
    setup.hand.length === checked.hand_size ? setupField("hand") : null));
  main.append(startButton());
}

// -- the table ----------------------------------------------------------------------------------------------------

function teamName(team) {
  return S.me && S.players.find((p) => p.me).team === team ? "us" : S.me ? "them" : `team ${team + 1}`;
}

// the server's words for who won (those cardlogic live ends on), as the header's sentence
function resultText() {
  return S.result[0].toUpperCase() + S.result.slice(1);
}

function statusText() {
  if (S.result) return resultText();
  if (S.movers.length > 1) return "Anyone may move first";
  const mover = S.players.find((p) => p.name === S.to_move);
  const me = S.players.find((p) => p.me);
  const side = !me ? "" : mover.me ? " (me)" : mover.team === me.team ? " (my teammate)" : " (opponent)";
  return `${S.to_move} to move${side}`;
}

function renderTable(main) {
  document.getElementById("status").textContent = statusText();
  document.getElementById("score").textContent =
    `${teamName(0)} ${S.scores[0]} – ${S.scores[1]} ${teamName(1)}`;
  const left = el("section", {});
  const right = el("section", {});
  left.append(el("h2", {}, "Seats"), el("div", { class: "seats", id: "seats" }, S.players.map((p) =>
    el("div", { class: `seat t${p.team}${S.movers.includes(p.name) ? " turn" : ""}` },
      el("b", {}, p.name + (p.me ? " (me)" : "")), el("small", {}, `${p.cards} card${p.cards === 1 ? "" : "s"} · ${teamName(p.team)}`)))));
  if (S.advice) left.append(renderAdvice());
  if (S.me) {
    left.append(el("h2", {}, `My hand (${S.hand.length})`),
      el("div", { class: "cards", id: "hand" }, S.hand.length ? S.hand.map((card) =>
        cardButton(card, { onclick: () => why(card) })) : el("span", { class: "hint" }, "no cards")));
  }
  const claimed = Object.entries(S.claimed);
  if (claimed.length) {
    left.append(el("h2", {}, "Sets claimed"), el("div", { class: "row", id: "claimed" }, claimed.map(([name, team]) =>
      el("span", { class: `chip ${team == null ? "void" : "t" + team}` },
        `${name} · ${team == null ? "void" : teamName(team)}`))));
  }
  if (S.heat.cards.length || S.heat.error) right.append(renderHeat("Who holds what"));
  right.append(el("h2", {}, `Log (${S.log.length} events)`),
    el("ol", { class: "log", id: "log" }, [...S.log].reverse().map((entry) =>
      el("li", {}, el("span", { class: "n" }, `line ${entry.line}`), entry.text))));
  main.append(left, right);
  const actions = el("nav", { class: "actions", id: "actions" },
    el("button", { class: "primary", id: "ask", disabled: !Object.values(S.asks).some((a) => a.length),
      onclick: () => askSheet() }, "Ask"),
    el("button", { id: "claim", disabled: !S.claimers.length, onclick: () => claimSheet() }, "Claim"),
    el("button", { id: "pass", disabled: !S.passes.length, onclick: () => passSheet() }, "Pass"),
    el("button", { id: "undo", disabled: !S.log.length, onclick: () => {
      const last = S.log[S.log.length - 1].text;
      change("/api/undo", {}, `undone: ${last}`);
    } }, "Undo"));
  main.append(actions);
}

function percent(p) {
  return `${Math.round(p * 100)}%`;
}

function renderAdvice() {
  const advice = S.advice;
  const box = el("div", { class: "advice", id: "advice" });
  box.append(el("h2", {}, "Advice"));
  if (advice.error) {
    box.append(el("p", {}, `No advice: ${advice.error}`));
    return box;
  }
  box.append(el("p", { class: "why", id: "recommendation" }, advice.recommendation.reason));
  const asker = advice.to_move;
  // the recommended ask first (a guess in the strongest set may rank below the best by value), then the best others
  const rec = advice.recommendation;
  const recommended = (ask) => rec.action === "ask" && rec.target === ask.target && rec.card === ask.card;
  const shown = [...advice.asks.filter(recommended), ...advice.asks.filter((ask) => !recommended(ask))];
  for (const ask of shown.slice(0, 3)) {
    const choice = asker && (S.asks[asker] || []).find((c) => c.target === ask.target && c.card === ask.card);
    box.append(el("button", { disabled: !choice, class: recommended(ask) ? "recommended" : "",
      onclick: () => askSheet(asker, ask.target, ask.card) },
      el("span", {}, `ask ${ask.target} for ${ask.card}`), el("span", {}, `P(yes) ${percent(ask.p_yes)}`)));
  }
  const claims = advice.claims.filter((c) => c.certain || c.forced || c.p_team_holds >= 0.5);
  for (const claim of claims) {
    box.append(el("button", { disabled: !S.claimers.length, onclick: () => claimSheet(S.claimers[0], claim.set) },
      el("span", {}, `claim ${claim.set}${claim.certain ? " (certain)" : ""}`),
      el("span", {}, `P(correct) ${percent(claim.p_correct)}`)));
  }
  box.append(el("p", { class: "hint", id: "prior" }, advice.caption));  // which prior answered, over which deals
  return box;
}

// the heat map of either game: a row a card, a column a holder (a seat; in Knektpass also the cards put down and
// the stock), each cell shaded by P(the holder has the card) and tapped for the card's why
const HOLDER_LABELS = { discards: "disc.", stock: "stock" };

function renderHeat(title) {
  if (S.heat.error) return el("p", { class: "hint", id: "heat" }, `${title}: out of reach (${S.heat.error})`);
  const holders = S.heat.holders;
  const seats = holders.map((name) => S.players.find((p) => p.name === name));
  const label = (name, i) => (seats[i] ? name.slice(0, 3) : HOLDER_LABELS[name] || name);
  const head = el("tr", {}, el("th", {}, ""), holders.map((name, i) =>
    el("th", { class: seats[i] && seats[i].team != null ? `t${seats[i].team}` : "", title: name }, label(name, i))));
  const rows = S.heat.cards.map((row) => el("tr", {}, el("th", {}, row.card), row.p.map((p, i) => {
    const light = Math.round(100 - p * 62);
    const style = { background: `hsl(218 65% ${light}%)`, color: light < 60 ? "#fff" : "#1a1a1a" };
    return el("td", {}, el("button", { style, "aria-label": `${row.card} with ${holders[i]}: ${percent(p)}`,
      onclick: () => why(row.card) }, p === 0 ? "·" : p === 1 ? "■" : Math.round(p * 100)));
  })));
  return el("div", { id: "heat" }, el("h2", {}, `${title} (%), tap for why`), el("div", { class: "heatbox" },
    el("table", { class: "heat" }, el("thead", {}, head), el("tbody", {}, rows))));
}

// -- Knektpass ----------------------------------------------------------------------------------------------------

const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function signed(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
}

function knektpassStatus() {
  if (S.result) return resultText();
  if (S.outcome) return `Deal ${S.deal} is over`;
  const mover = S.players.find((p) => p.name === S.to_move);
  return `${S.to_move} to ${{ trump: "take or leave the trump", bid: "play or fold", exchange: "exchange",
    play: "play" }[S.deal_phase]}${mover && mover.me ? " (me)" : ""}`;
}

// the event a choice enters, from what the server offers: a tap sends it as it is
function choiceButton(choice, label, attrs) {
  return el("button", { ...attrs, onclick: () => change("/api/event", { event: choice.event }, choice.event) }, label);
}

function renderKnektpass(main) {
  document.getElementById("status").textContent = knektpassStatus();
  document.getElementById("score").textContent = S.players.map((p) => `${p.name} ${p.points}`).join(" · ");
  const left = el("section", {});
  const right = el("section", {});
  const trumps = `trumps ${SUIT_NAMES[S.trumps]} (${S.turned} turned${S.took === true ? ", taken" :
    S.took === false ? ", left" : ""})`;
  const stage = { trump: "the dealer takes or leaves the turned card", bid: "the bids",
    exchange: `the exchange, round ${S.round}`, play: `the play, trick ${S.tricks_played + 1}` }[S.deal_phase];
  left.append(el("h2", {}, `Deal ${S.deal} · ${trumps}`), el("p", { class: "hint", id: "stage" },
    S.outcome ? `${S.outcome}.` : `${stage[0].toUpperCase()}${stage.slice(1)} · stock ${S.stock}`));
  left.append(el("div", { class: "seats", id: "seats" }, S.players.map((p) => {
    const bid = p.bid === false ? "folded" : S.deal_phase === "exchange" || S.deal_phase === "play" || S.outcome
      ? `${p.tricks} of ${p.minimum} tricks` : p.bid ? "plays" : "";
    return el("div", { class: `seat t0${p.name === S.to_move ? " turn" : ""}${p.bid === false ? " out" : ""}` },
      el("b", {}, p.name + (p.me ? " (me)" : "") + (p.dealer ? " · deals" : "")),
      el("small", {}, `${p.points} points · ${p.cards} card${p.cards === 1 ? "" : "s"}${bid ? " · " + bid : ""}`));
  })));
  if (S.deal_phase === "play" || S.trick.length) {
    left.append(el("h2", {}, `Trick ${S.tricks_played + (S.outcome ? 0 : 1)} on the table`),
      el("div", { class: "cards", id: "trick" }, S.trick.length ? S.trick.map((t) =>
        el("span", { class: "played" }, el("small", {}, t.player), cardButton(t.card, { onclick: () => why(t.card) })))
        : el("span", { class: "hint" }, "no card played yet")));
  }
  left.append(renderKnektpassChoices());
  if (S.advice) left.append(renderKnektpassAdvice());
  if (S.me) {
    left.append(el("h2", {}, `My hand (${S.hand.length})`),
      el("div", { class: "cards", id: "hand" }, S.hand.length ? S.hand.map((card) =>
        cardButton(card, { onclick: () => why(card) })) : el("span", { class: "hint" }, "no cards")));
  }
  if (S.heat.cards.length || S.heat.error) right.append(renderHeat("Where the cards are"));
  right.append(el("h2", {}, `Log (${S.log.length} events)`),
    el("ol", { class: "log", id: "log" }, [...S.log].reverse().map((entry) =>
      el("li", {}, el("span", { class: "n" }, `line ${entry.line}`), entry.text))));
  main.append(left, right);
  main.append(el("nav", { class: "actions", id: "actions" },
    el("button", { class: "primary", id: "next-deal", disabled: !S.next_deal, onclick: () => nextDealSheet() },
      "Next deal"),
    el("button", { id: "undo", disabled: !S.log.length, onclick: () => {
      const last = S.log[S.log.length - 1].text;
      change("/api/undo", {}, `undone: ${last}`);
    } }, "Undo")));
}

// what the player to move may do: a card a tap in the play, else the phase's verbs
function renderKnektpassChoices() {
  const box = el("div", { id: "choices" });
  if (!S.to_move) return box;
  const who = S.to_move + (S.my_turn ? " (me)" : "");
  if (S.deal_phase === "play") {
    box.append(el("h2", {}, `${who} plays…`), el("div", { class: "cards", id: "play-cards" }, S.choices.map((c) =>
      choiceButton(c, c.event.split(" ").pop(), { class: `card${/[HD]$/.test(c.event) ? " red" : ""}` }))));
    return box;
  }
  const label = (event) => event.slice(S.to_move.length + 1);
  box.append(el("h2", {}, `${who}…`), el("div", { class: "row", id: "verbs" },
    S.choices.map((c) => choiceButton(c, label(c.event))),
    S.exchange ? el("button", { id: "exchange", class: "primary", onclick: () => exchangeSheet() },
      "exchange cards…") : null));
  return box;
}

function renderKnektpassAdvice() {
  const advice = S.advice;
  const box = el("div", { class: "advice", id: "advice" }, el("h2", {}, "Advice (expected points: minus is good)"));
  if (advice.error) {
    box.append(el("p", {}, `No advice: ${advice.error}`));
    return box;
  }
  for (const option of advice.options) {
    const choice = S.choices.find((c) => c.event === option.event);
    const attrs = { class: "option", disabled: !choice && !S.exchange };
    const parts = [el("span", {}, option.event), el("span", {},
      `${signed(option.points)} · P(min) ${percent(option.chance)}`)];
    box.append(choice ? choiceButton(choice, parts, attrs)
      : el("button", { ...attrs, onclick: () => exchangeSheet(S.exchange.advised[option.event]) }, ...parts));
  }
  box.append(el("p", { class: "hint", id: "prior" }, `prior: ${advice.prior}`));  // which prior answered
  return box;
}

function exchangeSheet(advised) {
  const most = S.exchange.most;
  const down = [...(advised || [])]; // the advice's cards to put down, pre-selected
  const drawn = [];
  const draw = () => {
    const toggle = (list, card, limit) => {
      const at = list.indexOf(card);
      if (at >= 0) list.splice(at, 1);
      else if (list.length < limit) list.push(card);
      draw();
    };
    const text = `${S.me} exchanges ${down.length}: ${down.join(" ")} for ${drawn.join(" ")}`;
    openSheet(`My exchange: put down up to ${most}, then draw as many`,
      el("h2", {}, `Put down (${down.length})`),
      el("div", { class: "cards", id: "put-down" }, S.hand.map((card) =>
        cardButton(card, { class: down.includes(card) ? "on" : "", onclick: () => toggle(down, card, most) }))),
      down.length ? el("h2", {}, `Drawn (${drawn.length} of ${down.length})`) : null,
      down.length ? deckGrid(S.exchange.draws, (card) => drawn.includes(card),
        (card) => toggle(drawn, card, down.length), "drawn") : null,
      el("p", {}, el("button", { class: "primary", id: "enter-exchange",
        disabled: !down.length || drawn.length !== down.length,
        onclick: () => change("/api/event", { event: text }, text) }, "Enter the exchange")));
  };
  draw();
}

function nextDealSheet() {
  const next = S.next_deal;
  let turned = null;
  let hand = [];
  const draw = () => {
    const text = `Deal ${next.number}: Trump ${turned}` + (S.me ? `; Hand ${S.me}: ${hand.join(" ")}` : "");
    const ready = turned && (!S.me || hand.length === next.hand_size);
    openSheet(`Deal ${next.number}: ${next.dealer} deals`,
      el("h2", {}, "The turned card"),
      deckGrid(next.deck, (card) => card === turned, (card) => {
        turned = card;
        hand = hand.filter((c) => c !== card);
        draw();
      }, "next-trump"),
      turned && S.me ? el("h2", {}, `My hand: ${hand.length} of ${next.hand_size} cards`) : null,
      turned && S.me ? deckGrid(next.deck.filter((card) => card !== turned), (card) => hand.includes(card), (card) => {
        hand = hand.includes(card) ? hand.filter((c) => c !== card) : hand.length < next.hand_size ? [...hand, card] : hand;
        draw();
      }, "next-hand") : null,
      el("p", {}, el("button", { class: "primary", id: "start-deal", disabled: !ready,
        onclick: () => change("/api/event", { event: text }, text) }, `Start deal ${next.number}`)));
  };
  draw();
}

// -- sheets -------------------------------------------------------------------------------------------------------

function openSheet(title, ...children) {
  const sheet = document.getElementById("sheet");
  sheet.replaceChildren(el("button", { class: "close", onclick: closeSheet, "aria-label": "close" }, "✕"),
    el("h3", {}, title), ...children.filter((child) => child != null));
  sheet.hidden = false;
}

function closeSheet() {
  document.getElementById("sheet").hidden = true;
}

function askSheet(asker, target, card) {
  const askers = Object.keys(S.asks).filter((name) => S.asks[name].length);
  if (!asker && askers.length === 1) asker = askers[0];
  if (!asker) {
    return openSheet("Who asks?", el("div", { class: "row" }, askers.map((name) =>
      el("button", { onclick: () => askSheet(name) }, name))));
  }
  const choices = S.asks[asker];
  if (!target) {
    const targets = [...new Set(choices.map((c) => c.target))];
    return openSheet(`${asker} asks… whom?`, el("div", { class: "row", id: "targets" }, targets.map((name) =>
      el("button", { onclick: () => askSheet(asker, name) }, name))));
  }
  if (!card) {
    const cards = choices.filter((c) => c.target === target).map((c) => c.card);
    return openSheet(`${asker} asks ${target} for…`, el("div", { class: "cards", id: "ask-cards" },
      cards.map((c) => cardButton(c, { onclick: () => askSheet(asker, target, c) }))));
  }
  const choice = choices.find((c) => c.target === target && c.card === card);
  openSheet(`${asker} asks ${target} for ${card}: the answer?`, el("div", { class: "row", id: "answers" },
    choice.answers.map((answer) => el("button", { class: answer === "yes" ? "primary" : "",
      onclick: () => change("/api/event", { event: `${asker} asks ${target} for ${card}: ${answer}` },
        `${asker} asks ${target} for ${card}: ${answer}`) }, answer))));
}

function passSheet() {
  openSheet(`${S.passes[0].giver} passes the turn to…`, el("div", { class: "row" }, S.passes.map((p) =>
    el("button", { onclick: () => change("/api/event", { event: `${p.giver} passes to ${p.receiver}` },
      `${p.giver} passes to ${p.receiver}`) }, p.receiver))));
}

async function claimSheet(claimer, setName) {
  if (!claimer && S.claimers.length === 1) claimer = S.claimers[0];
  if (!claimer) {
    return openSheet("Who claims?", el("div", { class: "row" }, S.claimers.map((name) =>
      el("button", { onclick: () => claimSheet(name) }, name))));
  }
  if (!setName) {
    const open = S.sets.filter((s) => !(s.name in S.claimed));
    return openSheet(`${claimer} claims…`, el("div", { class: "row", id: "claim-sets" }, open.map((s) =>
      el("button", { onclick: () => claimSheet(claimer, s.name) }, s.name))));
  }
  const sheet = await call("GET", `/api/claim?claimer=${encodeURIComponent(claimer)}&set=${encodeURIComponent(setName)}`);
  if (!sheet || sheet.failed) return;
  const placed = { ...sheet.assignment };
  const held = { ...sheet.likely_holders };
  let outcome = "correct";
  const outcomes = S.rules.includes("wrong-claim=split") ? ["correct", "void", "opponents"] : ["correct", "opponents"];
  const draw = () => {
    const rows = (who, names, id) => el("div", { id }, Object.keys(placed).map((card) =>
      el("div", { class: "claimrow" }, el("span", {}, card), names.map((name) =>
        el("button", { class: who[card] === name ? "on" : "", onclick: () => { who[card] = name; draw(); } }, name)))));
    const groups = (who) => {
      const by = {};
      for (const [card, name] of Object.entries(who)) (by[name] = by[name] || []).push(card);
      return Object.entries(by).map(([name, cards]) => `${name} ${cards.join(" ")}`).join("; ");
    };
    const chance = sheet.p_correct == null ? "" : `P(correct) ${percent(sheet.p_correct)} as pre-filled`;
    const text = `${claimer} claims ${sheet.set}: ${groups(placed)} => ${outcome}` +
      (outcome === "correct" ? "" : ` (${groups(held)})`);
    openSheet(`${claimer} claims ${sheet.set}`, el("p", { class: "hint", id: "p-correct" }, chance),
      rows(placed, sheet.team, "assignment"),
      el("h2", {}, "Outcome"), el("div", { class: "row", id: "outcomes" }, outcomes.map((o) =>
        el("button", { class: o === outcome ? "on" : "", onclick: () => { outcome = o; draw(); } }, o))),
      outcome === "correct" ? null : el("div", {}, el("h2", {}, "Who really held each card"),
        rows(held, S.players.map((p) => p.name), "revealed")),
      el("p", {}, el("button", { class: "primary", id: "enter-claim",
        onclick: () => change("/api/event", { event: text }, text) }, "Enter the claim")));
  };
  draw();
}

async function why(card) {
  const answer = await call("GET", `/api/why?card=${encodeURIComponent(card)}`);
  if (answer && !answer.failed) openSheet(`Why: ${card}`, el("pre", { id: "why" }, answer.lines.join("\n")));
}

// -- the page -----------------------------------------------------------------------------------------------------

function render() {
  const main = document.getElementById("main");
  main.replaceChildren();
  // the recommendation stays in sight, under the header, whenever my team is to move
  const tip = document.getElementById("tip");
  const advice = S.phase === "setup" ? null : S.advice;
  tip.hidden = !advice;
  tip.textContent = !advice ? "" : advice.error ? `No advice: ${advice.error}` : S.game === "knektpass"
    ? `Advice: ${advice.best} (expected points ${signed(advice.options[0].points)}, minus is good)`
    : `Advice: ${advice.recommendation.reason}`;
  if (S.phase !== "setup") sessionStorage.removeItem(DRAFT);
  if (S.phase === "setup") renderSetup(main);
  else if (S.game === "knektpass") renderKnektpass(main);
  else renderTable(main);
}

// the game as the server has it now, shown when it is news: another tab or phone (or a restart) changed it
async function load() {
  const seen = S && S.version;
  const answer = await call("GET", "/api/state");
  // a change this page sent meanwhile has shown its own answer: an older look is no news
  if (!answer || answer.failed || (S && S.version) !== seen || answer.version === seen) return;
  S = answer;
  if (seen && !document.getElementById("sheet").hidden) {
    closeSheet(); // its choices were those of the game before
    toast("the game changed on another page (or the server restarted): this is the game now", true);
  }
  render();
}

const LOOK_EVERY = 2000; // milliseconds between looks at the game while the page is in sight
document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
setInterval(() => { if (!document.hidden) load(); }, LOOK_EVERY);
load();
