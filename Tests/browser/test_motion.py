"""The Motion page plays the server's timelines: stagger order, sequences, calm mode.

No sleeps: animations are inspected through the Web Animations API and frozen at chosen times."""
from playwright.sync_api import expect

TIMINGS = """() => Array.from(document.querySelectorAll('#stagger-list li')).map(li => {
  const a = li.getAnimations()[0];
  return a ? Math.round(a.effect.getTiming().delay * 1000) / 1000 : null;
})"""

FREEZE_AT = """(ms) => {
  for (const a of document.querySelectorAll('#stagger-list li')) for (const x of a.getAnimations()) { x.pause(); x.currentTime = ms; }
  return Array.from(document.querySelectorAll('#stagger-list li')).map(li => {
    const s = getComputedStyle(li); return { opacity: parseFloat(s.opacity), transform: s.transform };
  });
}"""


def open_motion(page, server):
    page.goto(server + "/motion")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#stagger-list li")).to_have_count(6)


def test_motion_page_renders_every_demo(page, server):
    open_motion(page, server)
    expect(page.locator("h1")).to_have_text("Motion")
    expect(page.locator("#card-reveal [data-step=title]")).to_be_visible()
    expect(page.locator("#list-appear [data-step=footer]")).to_be_visible()
    expect(page.locator("#wave-row span")).to_have_count(12)
    assert page.evaluate("document.querySelector('#wave-row span').getAnimations().length") == 1


def test_list_items_appear_in_stagger_order(page, server):
    open_motion(page, server)
    delays = page.evaluate(TIMINGS)
    assert delays == [0, 50, 100, 150, 200, 250], delays
    frame = page.evaluate(FREEZE_AT, 120)
    opacities = [item["opacity"] for item in frame]
    # At 120 ms the first three have started, the last three have not.
    assert all(o > 0 for o in opacities[:3]), opacities
    assert all(o == 0 for o in opacities[3:]), opacities
    assert opacities[0] >= opacities[1] >= opacities[2]


def test_fast_config_and_centre_origin(page, server):
    open_motion(page, server)
    page.click("[data-config=fast]")
    expect(page.locator("#stagger-note")).to_contain_text("fast")
    assert page.evaluate(TIMINGS) == [0, 30, 60, 90, 120, 150]
    page.click("[data-origin=center]")
    expect(page.locator("#stagger-list li").first).to_have_attribute("data-stagger-delay", "0.06")
    assert page.evaluate(TIMINGS) == [60, 30, 0, 0, 30, 60]


def test_adding_items_staggers_only_the_new_ones(page, server):
    open_motion(page, server)
    page.click("#add-items")
    expect(page.locator("#stagger-list li")).to_have_count(9)
    expect(page.locator("#stagger-list li.new")).to_have_count(3)
    delays = [page.locator("#stagger-list li").nth(i).get_attribute("data-stagger-delay") for i in range(9)]
    assert delays[:6] == [""] * 6 and delays[6:] == ["0", "0.05", "0.1"], delays


def test_card_reveal_steps_start_in_order(page, server):
    open_motion(page, server)
    order = page.evaluate("""() => ['background','icon','title','content','actions'].map(id =>
      Math.round(document.querySelector(`#card-reveal [data-step=${id}]`).getAnimations()[0].effect.getTiming().delay * 1000) / 1000)""")
    assert order == [0, 100, 150, 200, 300], order


def test_calm_mode_shows_items_at_once_without_movement(page, server):
    open_motion(page, server)
    page.click("label.switch")
    expect(page.locator("#preference-label")).to_have_text("Calm: fades only")
    expect(page.locator("#stagger-note")).to_contain_text("reduced motion")
    assert page.evaluate(TIMINGS) == [0] * 6
    frame = page.evaluate(FREEZE_AT, 100)
    assert all(item["transform"] in ("none", "matrix(1, 0, 0, 1, 0, 0)") for item in frame), frame
    assert all(0 < item["opacity"] < 1 for item in frame)
    assert page.evaluate("document.querySelector('#wave-row span').getAnimations().length") == 0
    # The choice survives a reload.
    open_motion(page, server)
    expect(page.locator("#preference-label")).to_have_text("Calm: fades only")


def test_system_reduced_motion_is_honoured(reduced_page, server):
    open_motion(reduced_page, server)
    expect(reduced_page.locator("#preference-label")).to_have_text("Calm: fades only")
    assert reduced_page.evaluate(TIMINGS) == [0] * 6


def test_every_pages_calm_switch_shows_the_systems_reduced_motion(reduced_page, server):
    """The shell's Calm switch (motion.js) reads "on" when the system asks for reduced motion: the page is calm
    already, and the switch cannot be turned off against the system. (It read "off" outside the cryptogram.)"""
    for path in ["/", "/motion", "/projects", "/challenges", "/cryptogram"]:
        reduced_page.goto(server + path)
        calm = reduced_page.locator("#calm")
        expect(calm).to_be_checked()
        expect(calm).to_be_disabled()
        expect(reduced_page.locator("#calm-help")).to_contain_text("reduced motion")


def test_the_calm_switch_is_free_without_reduced_motion_and_remembers_the_choice(page, server):
    open_motion(page, server)
    calm = page.locator("#calm")
    expect(calm).to_be_enabled()
    expect(calm).not_to_be_checked()
    page.click("label.switch")
    expect(calm).to_be_checked()
    page.goto(server + "/projects")
    expect(page.locator("#calm")).to_be_checked()
    expect(page.locator("#calm")).to_be_enabled()
