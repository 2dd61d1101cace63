# Hellas: the static tables of one data set (HS), filled from a checked loader.HellasData. Every rule key the C
# code reads becomes a number here; nothing below chooses a rule.

def _fill_tables(int slot, data):
    from engine.games.hellas import loader
    cdef HS* s = &TABLES[slot]
    memset(s, 0, sizeof(HS))
    areas = data.areas
    land = [a for a in areas if not a.sea]
    s.nl = len(land)
    s.ns = len(areas) - s.nl
    s.na = len(areas)
    index = {a.id: a.index for a in areas}
    nats = sorted({a.nationality for a in areas if a.nationality} | {u.nationality for u in data.units})
    regions = sorted({a.subject_region for a in areas if a.subject_region})
    subject_nats = set(data.events["revolt"]["subject_nationalities"])
    helot_cities = set(data.events["helot_uprising"]["cities"])
    for a in areas:
        i = a.index
        s.site[i] = {"none": SITE_NONE, "city": SITE_CITY, "port": SITE_PORT, "settlement": SITE_SETTLEMENT}[
            a.site_type]
        s.value[i] = a.value
        s.capacity[i] = a.capacity
        s.loyal[i] = {"Athens": ATH, "Sparta": SPA, "neutral": 2, "none": -1}[a.loyalty]
        s.nat[i] = nats.index(a.nationality) if a.nationality else -1
        s.region[i] = regions.index(a.subject_region) if a.subject_region else -1
        s.capital[i] = a.capital
        s.neutral[i] = a.neutral
        if a.neutral:
            s.neutral_bits |= (<uint64_t>1) << i
        if not a.sea and s.site[i] in (SITE_CITY, SITE_PORT):
            s.city_bits |= (<uint64_t>1) << i
            if s.loyal[i] in (ATH, SPA):
                s.loyal_cities[s.loyal[i]] |= (<uint64_t>1) << i
        s.offshore[i] = index[a.offshore_sea] if a.offshore_sea else -1
        s.subject[i] = 1 if (a.is_city and a.loyalty == "Athens" and a.nationality in subject_nats) else 0
        s.helot[i] = 1 if (a.is_city and a.site_name in helot_cities) else 0
        for b in a.neighbours:
            s.adj[i] |= bit(index[b])
        for c in a.coasts:
            s.coast[i] |= bit(index[c])
        for b, kind in a.borders.items():
            if kind == "hazard":
                s.hazard[i] |= bit(index[b])
            elif kind == "strait":
                s.strait[i] |= bit(index[b])
    types = {"hoplite": T_HOPLITE, "archers": T_ARCHERS, "cavalry": T_CAVALRY, "infantry": T_INFANTRY,
             "fleet": T_FLEET}
    specials = {"": SP_NONE, "odrysian": SP_ODRYSIAN, "persian_aid": SP_PERSIAN, "e2_fleet": SP_E2}
    s.nu = len(data.units)
    for u in data.units:
        i = u.index
        s.u_side[i] = ATH if u.side == "Athens" else SPA
        s.roster[s.u_side[i]][s.roster_n[s.u_side[i]]] = i
        s.roster_n[s.u_side[i]] += 1
        s.u_nat[i] = nats.index(u.nationality)
        s.u_type[i] = types[u.type]
        s.u_let[i] = "ABCD".index(u.land_rating[0])
        s.u_pow[i] = int(u.land_rating[1])
        s.u_nlet[i] = "ABCDEF".index(u.naval_rating[0]) if u.naval_rating else -1
        s.u_npow[i] = int(u.naval_rating[1]) if u.naval_rating else 0
        s.u_max[i] = u.max_steps
        s.u_lspd[i] = u.land_speed
        s.u_sspd[i] = u.sea_speed
        s.u_elite[i] = u.elite
        s.u_barb[i] = u.barbarian
        s.u_home[i] = index[u.home_settlement] if u.home_settlement else -1
        s.u_special[i] = specials[u.special]
        s.u_start[i] = POOL if u.start_area == "pool" else index[u.start_area]
        s.u_steps0[i] = u.start_steps
        for a in land:                              # where it may be recruited (legal.recruit_places)
            if a.is_city and a.nationality and nats.index(a.nationality) == s.u_nat[i] and \
                    (u.type != "fleet" or a.site_type == "port"):
                s.u_places[i] |= (<uint64_t>1) << a.index
    s.sea_bits = sum(1 << a.index for a in areas if a.sea)
    s.open_bits = sum(1 << a.index for a in areas) & ~s.city_bits
    kinds = list(loader.EVENT_KINDS)
    s.nc = len(data.cards)
    for i, c in enumerate(data.cards):
        s.c_id[i] = c.id
        s.c_kind[i] = kinds.index(c.event)
        s.c_colour[i] = ("red", "blue", "green").index(c.colour)
        s.c_cont[i] = c.continuing
        s.c_nyf[i] = c.ny_forbidden
        s.c_cond[i] = loader.CONDITIONS.index(c.condition)
        s.c_side[i] = -1
        s.c_region[i] = -1
        if c.event == "leader":
            s.c_side[i] = ATH if c.params["side"] == "Athens" else SPA
            s.c_rating[i] = c.params["rating"]
        if c.event == "revolt":
            s.c_region[i] = regions.index(c.params["region"])
            s.c_spread[i] = c.params["spread"]
        s.c_act[i] = c.actions
    ids = [c.id for c in data.cards]
    sc = data.scenario
    s.lead0[ATH] = ids.index(sc["leaders"]["Athens"])
    s.lead0[SPA] = ids.index(sc["leaders"]["Sparta"])
    s.first_year = sc["first_year"]
    s.nyears = sc["first_year"] - sc["last_year"] + 1
    s.ev_step, s.ev_scale = data.evaluate["step"], data.evaluate["scale"]
    r = data.rules
    s.nseasons = len(r["SEASONS"])                  # the last is Winter
    s.start_prestige = sc["starting_prestige"] + r["STARTING_PRESTIGE"]
    s.r_hand = r["HAND_SIZE"]
    s.r_skip1 = r["SKIP_FIRST_YEAR_NY1_3"]
    s.r_init_bonus = r["INITIATIVE_VALUE"] == "coins_plus_bonuses"
    s.r_tie = ATH if r["INITIATIVE_TIE"] == "Athens" else SPA
    s.r_ny_first = ATH if r["NY_EVENT_ORDER"] == "Athens_first" else SPA
    s.r_events_winter = r["EVENTS_IN_WINTER"]
    s.r_sacrifice = r["SACRIFICE_EFFECT"] == "favour"
    s.r_favour_extra = r["FAVOUR_EXTRA_ACTION"]
    s.r_lead1 = r["LEADER_BONUS"]["rated_plus1"]
    s.r_lead0 = r["LEADER_BONUS"]["rated_0"]
    s.r_atr_per_card = r["ATR_ACTION_BONUS"] == "per_card"
    s.r_persian_bonus = r["PERSIAN_AID_ACTION_BONUS"]
    s.r_cap = r["ACTION_CAP"]
    s.r_move_once = r["MOVE_ONCE_PER_TURN"]
    s.r_capacity = r["CITY_CAPACITY"]
    s.r_recruit_cost = r["RECRUIT_COST"]
    s.r_new_steps = r["NEW_GREEK_UNIT_STEPS"]
    s.r_barb_once = r["BARBARIAN_ONCE_PER_YEAR"]
    s.r_pillage_one = r["PILLAGE_PRESTIGE"] == "one"
    s.r_pillage_once = r["PILLAGE_ONCE_PER_CITY_PER_YEAR"]
    s.r_prior_siege = r["SIEGE_COMBAT_NEEDS_PRIOR_SIEGE"]
    s.r_att_normal = r["ATTRITION_HIT_MAX"]["normal"]
    s.r_att_famine = r["ATTRITION_HIT_MAX"]["famine"]
    s.r_att_winter = r["ATTRITION_HIT_MAX"]["winter"]
    s.r_port_blockade = r["PORT_NEEDS_BLOCKADE_FOR_ATTRITION"]
    s.r_recapture = r["RECAPTURE_PRESTIGE"] == "city_value"
    s.r_supply_cost = r["WINTER_SUPPLY_COST"]
    s.r_unsupplied_elim = r["UNSUPPLIED_LOSS"] == "eliminate"
    s.r_persian_yearly = r["PERSIAN_AID_YEARLY"]
    s.r_noq_yearly = r["NO_QUARTER_YEARLY"]
    s.r_atrocity = r["ATROCITY_LOSS"]["amount"]
    s.r_atrocity_reading = "abcd".index(r["ATROCITY_LOSS"]["reading"])
    s.r_atrocity_extra = data.events["atrocity"]["leader_extra"]
    s.r_auto_lead = r["AUTO_VICTORY_LEAD"]
    s.r_auto_immediate = r["AUTO_VICTORY_TIMING"] == "immediate"
    s.r_truce = r["TRUCE_ENABLED"]
    s.r_truce_thr = r["TRUCE_THRESHOLD"]["normal"]
    s.r_truce_thr_pf = r["TRUCE_THRESHOLD"]["peace_faction"]
    s.r_truce_cost = r["TRUCE_COST"]["normal"]
    s.r_truce_cost_pf = r["TRUCE_COST"]["peace_faction"]
    s.r_truce_after = r["TRUCE_COMPARE_AFTER_COST"]
    s.r_minor = r["VICTORY_LEVELS"]["minor"]
    s.r_major = r["VICTORY_LEVELS"]["major"]
    s.r_winter_supply = "supply" in r["WINTER_ACTIONS"]
    s.r_winter_recruit = "recruit" in r["WINTER_ACTIONS"]
    s.r_battle_prestige = r["BATTLE_WIN_PRESTIGE"]
    s.r_cargo = r["CARGO_PER_FLEET"]
    s.r_cargo_rule = ("le", "lt", "max_le").index(r["CARGO_STEP_RULE"])
    s.r_storm = r["STORM_LOSS_ON"]
    s.r_march = r["FORCED_MARCH_SUCCESS"]
    s.r_sally = r["WINTER_SALLY"]
    s.r_fort_let = "ABCD".index(r["FORTIFIED_RATING"][0])
    s.r_fort_pow = int(r["FORTIFIED_RATING"][1])
    s.r_dd = r["DOUBLE_DEFENCE_HITS_PER_STEP"]["normal"]
    s.r_dd_open = r["DOUBLE_DEFENCE_HITS_PER_STEP"]["civil_war_or_treachery"]
    s.r_assault = r["ASSAULT_ROUNDS"]["normal"]
    s.r_assault_treach = r["ASSAULT_ROUNDS"]["treachery"]
    s.r_battle_free = r["BATTLE_ORDER"] == "free"
    s.r_rout_smallest = r["ROUT_TARGET"] == "smallest"
    s.r_battle_rounds = r["BATTLE_ROUNDS"]
    s.r_att_retreats = r["ATTACKER_RETREATS_AFTER_LAST_ROUND"]
    s.r_cav_retreat = r["CAVALRY_RETREAT_INTO_ENEMY_AREA"]
    s.r_withdraw = r["WITHDRAW_INTO_CITY"]
    s.r_open = r["OPEN_BLOCKS"]
    s.r_strait = r["STRAIT_DEFENDER_FIRST_ROUND1"]
    s.r_capital_wins = r["CAPITAL_CAPTURE_WINS"]
    s.r_capital_units = r["CAPITAL_WIN_REQUIRES_UNITS"]
    s.r_sides = ("assigned", "random", "bid").index(r["SIDE_SELECTION"])
    s.r_bid_max = r["AUTO_VICTORY_LEAD"] - 1          # spec 5.13: a bid never starts the game at an automatic win
    s.r_reroll = r["FAVOUR_REROLL"] and r["SACRIFICE_EFFECT"] == "favour"
    ev = data.events
    s.r_ev_plague_loss = ev["plague_strikes"]["step_loss"]
    s.r_ev_plague_min = ev["plague_strikes"]["min_steps"]
    s.r_ev_pr_loss = ev["plague_returns"]["step_loss"]
    s.r_ev_pr_min = ev["plague_returns"]["min_steps"]
    s.r_ev_revolt_n = ev["revolt"]["garrisons"]
    s.r_ev_revolt_extra = ev["revolt"]["extra_per_taxes_card"]
    _fill_tracker_tables(s)


cdef void _fill_tracker_tables(HS* s) noexcept:
    """The block tracker's tables (tracker.pxi): each block's side-local bit and prior strength, which blocks may
    come out of the pool where (legal.recruit_places: a city of its nationality, a port for a fleet; a barbarian
    at home), and which blocks each slot class may hold (hidden.slot_holds)."""
    cdef int u, side, a, cls
    for side in range(2):
        for u in range(s.roster_n[side]):
            s.u_local[s.roster[side][u]] = u
    for u in range(s.nu):
        side = s.u_side[u]
        s.u_ref[u] = s.u_steps0[u] if s.u_start[u] >= 0 else s.u_max[u] if s.u_barb[u] else s.r_new_steps
        for a in range(s.na):
            if (s.u_places[u] >> a) & 1 or (s.u_barb[u] and s.u_home[u] == a):
                s.enter[side][a] |= bit(s.u_local[u])
        for cls in range(5):
            if slot_holds(s, cls, u):
                s.holds[side][cls] |= bit(s.u_local[u])
