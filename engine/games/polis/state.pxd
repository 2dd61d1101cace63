# Polis (Fran Diaz): Athens (seat 0) against Sparta (seat 1). The state is one C struct (PolisData) so that clone
# is a struct copy; the static tables (map, markets, tiles, events) are one C struct (Static) owned by the game.
from libc.stdint cimport uint32_t

from engine.core cimport Game, State

cdef enum:
    MAXR = 16      # regions (12 used)
    MAXS = 8       # seas (5 used)
    NPOL = 18
    MAXCELL = 16
    NTILE = 14
    MAXEV = 48
    MAXEFF = 8
    NK = 9         # battle-card kinds
    MAXTC = 3      # tribute columns a region
    MAXPC = 12     # price-track positions (columns of the price grid)


cdef struct Static:
    int nr, ns, nm, ncell, nev
    uint32_t land_adj[MAXR]
    uint32_t sea_adj[MAXS]
    uint32_t coast[MAXR]
    uint32_t sea_only
    int dk_polis, dk_a, dk_b
    int preg[NPOL]
    int base[NPOL]
    int mgrow[NPOL]
    int mpop[NPOL]
    int nports[NPOL]
    int port[NPOL][2]
    uint32_t reg_poleis[MAXR]
    uint32_t portmask[NPOL]     # port seas of each polis
    uint32_t sea_poleis[MAXS]   # poleis with a port on each sea
    uint32_t sea_regions[MAXS]  # regions on the coast of each sea
    int capital[2]
    uint32_t trade_poleis[2]
    uint32_t tport[2]
    uint32_t mseas[8]
    int mland[8]
    int tcols[MAXR]
    int tres[MAXR][MAXTC]
    int tlen[MAXR][MAXTC]
    int tval[MAXR][MAXTC][8]
    int cmarket[MAXCELL]
    int crate[MAXCELL]
    int cgives[MAXCELL]
    uint32_t caccept[MAXCELL]
    int npcol                   # price-track positions (the grid's columns)
    int price[3][MAXPC]
    uint32_t tpoleis[NTILE]
    int tncomp[NTILE]
    int tcres[NTILE][3]
    int tcamt[NTILE][3]
    int tround[NTILE]
    int tend[NTILE]
    int ev_letter[MAXEV]
    int ev_n[MAXEV]
    int ev_side[MAXEV][MAXEFF]
    int ev_op[MAXEV][MAXEFF]
    int ev_a[MAXEV][MAXEFF]
    int ev_b[MAXEV][MAXEFF]
    int rcap, pcap, cubes, discs, merchants, turn_cap
    int disp[3]
    int kcount[NK]
    int kunit[NK]
    int kstr[NK]
    # evaluate() weights (data/evaluate.json, ASSUMED)
    double ev_res[5]
    double ev_res_last, ev_hoplite, ev_galley, ev_merchant, ev_growth, ev_lost_polis, ev_death, ev_scale, ev_food_open, ev_tie_break
    double ev_market, ev_region, ev_sea, ev_siege


cdef struct PolisData:
    # wide fields first, so the struct has no inner padding (info_key hashes its bytes)
    uint32_t started       # poleis where a project was started this round
    uint32_t pending       # areas still to fight in this battle check
    unsigned short blocked[2]
    # flow
    signed char phase, round, active, winner, first_passer, last_passer
    signed char passed[2]
    signed char acts, first_type, solo_acts
    signed char turns[2]
    # sub-decision context of the action under way
    signed char cur, sel_polis, sel_n, sel_n2, sel_tile, sel_area, sel_cell, moved, pay_res, pay_n, rise_mask
    # start-of-round event
    signed char event_cur, stack_delta, first_override
    signed char ev_stack[3]   # the face-down event stack (alpha, sigma, omega), dealt at set-up (L129)
    signed char ev_shown      # how many of them have been revealed
    # players
    signed char prestige[2]
    signed char res[2][5]
    signed char cubes[2]
    signed char discs[2]
    signed char msup[2]
    signed char mport[2]
    signed char prox[2]
    # map
    signed char hop[MAXR][2]
    signed char trib[MAXR]
    signed char gal[MAXS][2]
    signed char owner[NPOL]
    signed char pop[NPOL]
    signed char siege[NPOL][2]
    signed char grown[NPOL]
    signed char tile_where[NTILE]
    signed char tile_done[NTILE]
    signed char ppos[3]
    signed char cell_occ[MAXCELL]
    signed char cell_block[MAXCELL]
    # battle checks and battles
    signed char check_ctx, chooser
    signed char b_area, b_att, b_lost, b_rounds, b_initial
    signed char ret_who[2]
    signed char ret_cursor
    signed char a1, a2
    signed char deck[NK]
    signed char hand[2][NK]
    signed char disc[NK]
    signed char need[2]
    # end of round
    signed char eor_step, eor_idx, draws_left


cdef class PolisGame(Game):
    cdef Static st
    cdef readonly dict tables
    cdef readonly object data_dir


cdef class PolisState(State):
    cdef PolisData d
    cdef Static* g
