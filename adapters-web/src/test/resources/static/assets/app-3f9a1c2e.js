document.getElementById("root").textContent = "changeflow";
