// A room's seat, kept by this tab: the board page (app_index.html) and the text page
// (plain.html) both load this one script (served at /seat.js), so both keep a seat the
// same way. The tab's own secret (localStorage, per room and name: a tab reopened
// later) is what the door keeps the tab's seat token under, so a reloaded or reopened
// tab takes its seat back at once; what the tab joined as is kept in sessionStorage
// (this tab only, through reloads) under snlSeat.joined; snlSeat.comeBackLater()
// waits for a door that went and reloads the tab when it is back.
(function () {
  const code = (window.location.pathname.match(/\/join\/([A-Za-z0-9]+)/) || [])[1] || "";

  function newSecret() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  window.snlSeat = {
    code: code,
    joined: "snl-joined:" + code.toUpperCase(),
    secret: function (name) {
      const key = "snl-seat:" + code.toUpperCase() + ":" + name.toLowerCase();
      const kept = window.localStorage.getItem(key);
      const secret = kept && /^[0-9a-f]{32}$/.test(kept) ? kept : newSecret();
      window.localStorage.setItem(key, secret);
      return secret;
    },
    // The door went (its host stopped): ask for the page until the door answers
    // again, then reload it, which takes the seat back.
    comeBackLater: function () {
      const retry = async () => {
        try {
          const answer = await fetch(window.location.href, { method: "HEAD", cache: "no-store" });
          if (answer.ok) {
            window.location.reload();
            return;
          }
        } catch (error) {
          // the door is not back yet
        }
        setTimeout(retry, 2000);
      };
      setTimeout(retry, 1000);
    },
  };
})();
