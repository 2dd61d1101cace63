# C data of Pantikapaion: the static tables (one per Game) and the changing state (one struct per State).
# Rules: docs/rules/spec/pantikapaion.md; coverage: docs/rules/pantikapaion.md. Every number comes from data/*.json.
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t

cdef enum:
    G = 16                 # city grid side (engine limit, rules.json grid_size); cell = y * G + x
    NCELL = 256
    NOCELL = 255           # "no cell" in the uint8 cell fields
    MAXH = 15              # most tiles stacked at one position (4 bits; engine limit, never reached in play)
    NPL = 4                # most players
    NC = 5                 # colours = development-board rows = building types (index: row, top to bottom)
    MAXROW = 12            # most cells in a development-board row
    MAXB = 20              # building slots per player (15 builds + the free-build cells; checked at load)
    MAXT = 20              # tiles a city can receive (15 explorations + aqueduct and random-tile cells; checked)
    MAXTT = 72             # tile faces (terrain + aqueduct)
    MAXRING = 16
    NTOK = 16              # resource tokens
    MAXRES = 16            # resource cells on the development board
    NUPGC = 8              # upgrade cells
    MAXCELLS = 5           # cells of one tile

# top-cell face codes (low 4 bits of Player.cell; the height is the high 4 bits)
cdef enum:
    T_EMPTY = 1
    T_DROUGHT = 2
    T_RES = 3              # 3 + colour
    T_WILD = 8             # aqueduct tile's resource cell before its colour is chosen
    TYPE_MASK = 0x0F
    F_CUBE = 0x10          # flags of the Python-side "top" value (jsonio, render)
    F_WORKER = 0x20

# development-board cell kinds (data.CELL_KINDS order)
cdef enum:
    K_NONE = 0
    K_WORKER = 1
    K_VP = 2
    K_VPC = 3
    K_RES1 = 4
    K_RES2 = 5
    K_UPG = 6
    K_MOVE = 7
    K_FREE = 8
    K_AQT = 9
    K_RAND = 10
    K_ADV = 11

# building kinds (data.BUILDING_KINDS order) and upgrade kinds
cdef enum:
    B_HOUSE = 0
    B_WINERY = 1
    B_FORTRESS = 2
    B_AQUEDUCT = 3
    B_TEMPLE = 4
    U_SUB = 0
    U_RES = 1
    U_COIN = 2

# decision phases
cdef enum:
    PH_FIRST = 0           # chance: first player
    PH_TOKEN = 1           # chance: resource token for the next resource cell
    PH_RING = 2            # chance: next ring tile from the bag
    PH_RAND = 3            # chance: random tile (orange-row property)
    PH_PICK = 4            # which of the 3 tiles after the trireme
    PH_ROT = 5             # rotation of the tile in hand
    PH_ANCHOR = 6          # where it goes (level follows)
    PH_AQCOL = 7           # colour of the cube on an aqueduct tile's resource cell
    PH_WORK = 8            # place a worker, or done
    PH_DEV = 9             # the development action
    PH_PAYSUB = 10         # colour paid by a substitution token
    PH_BPLACE = 11         # building placement (build, free build or move)
    PH_MOVESEL = 12        # which building to move, or skip
    PH_FREESEL = 13        # which building to build for free, or skip
    PH_OPT = 14            # use an optional tile property (aqueduct tile / random tile), or skip
    PH_ADVSEL = 15         # temple property: which other row, or skip
    PH_PAID = 16           # another paid step, or stop
    PH_DISCARD = 17        # round-end discard down to the storage limit
    PH_OVER = 18

# action ids (ranges; ascending within every decision)
cdef enum:
    A_PICK = 0             # + ring slot
    A_ROT = 16             # + rotation index
    A_ANCHOR = 20          # + cell of the rotated tile's top-left bounding-box corner
    A_AQCOL = 276          # + colour
    A_WORK = 281           # + cell
    A_WDONE = 537
    A_BUILD = 538          # + building type
    A_SELL = 543           # + colour mask
    A_TCOIN = 575
    A_TCUBE = 576          # + colour
    A_PAYSUB = 581         # + colour
    A_BPLACE = 586         # + cell (1-cell building, or 2-cell across: cell, cell+1)
    A_BPLACEV = 842        # + cell (2-cell building down: cell, cell+G)
    A_MOVESEL = 1098       # + building slot
    A_FREESEL = 1134       # + building type
    A_ADVROW = 1139        # + row
    A_USE = 1144
    A_PAID = 1145
    A_DISC = 1146          # + colour
    A_SKIP = 1151
    A_DRAW = 1152          # + tile face (chance)
    A_TOKEN = 1224         # + token (chance)
    A_FIRST = 1240         # + seat (chance)
    NUM_ACTIONS = 1244

cdef struct Shape:
    int n
    int h
    int w
    int deg
    int dy[MAXCELLS]
    int dx[MAXCELLS]
    int typ[MAXCELLS]
    uint32_t rowmask[MAXCELLS]

cdef struct Tables:
    int players
    int n_terrain
    int n_types
    int aq_first
    int n_aq
    int count[MAXTT]
    int nrot[MAXTT]
    Shape rot[MAXTT][4]
    int rowlen[NC]
    int kind[NC][MAXROW + 1]
    int arg[NC][MAXROW + 1]
    int rate[NC][MAXROW + 1]      # VP rate in force at each marker position (winery: the divisor; 0 none)
    int plus_w[MAXROW + 1]        # '+worker' cells of the house row reached at each position
    int bsize[NC]
    int bkind[NC]
    int t_of[NC]                  # building type of each kind
    int pieces
    int cost[8]
    int n_res1
    int n_res2
    int n_tok
    int n_single
    int tok[NTOK][NC]
    int n_upg
    int upg_kind[NUPGC]
    int ring_size
    int choices
    int rounds
    int turns
    int workers
    int workers_start
    int limit
    int paid[3]
    int sell_min
    int sell_max
    int take_coins
    int coins_per_vp
    int max_sub
    int start_coins
    int start_cubes[NC]
    int adj_same_level            # readings (data/rules.json "readings"): G10 adjacency only on one level
    int temple_types              # G11: temples count other building types, not buildings
    # evaluate() weights (data/evaluate.json, ASSUMED search heuristics, not rules)
    double ev_building
    double ev_step
    double ev_worker
    double ev_coin
    double ev_scale

cdef struct Player:
    uint8_t cell[NCELL]           # height << 4 | face of the top cell (0: no tile)
    uint16_t frow[G]              # footprint (height >= 1), one bit per column
    uint16_t brow[G]              # cells under a building
    uint16_t crow[G]              # cells holding a cube
    uint16_t wrow[G]              # cells holding a worker
    int16_t bc0[MAXB]             # building cells (bc1 = -1 for a 1-cell building)
    int16_t bc1[MAXB]
    uint8_t btype[MAXB]
    uint8_t h_tile[MAXT]          # placement history (to_json, validation)
    uint8_t h_rot[MAXT]
    uint8_t h_at[MAXT]
    int8_t h_col[MAXT]
    int16_t coins
    uint8_t store[NC]
    uint8_t marker[NC]
    int8_t nb
    int8_t ntiles
    int8_t w_board
    int8_t w_supply
    int8_t w_city
    int8_t n_sub
    int8_t has_res
    int8_t has_coin
    int8_t miny
    int8_t maxy
    int8_t minx
    int8_t maxx

cdef struct SData:
    int players
    int phase
    int round
    int tturn                     # turns taken this round
    int first
    int cur
    int ring[MAXRING]
    int ring_fill
    int tri                       # ring slot of the trireme (-1: before slot 0)
    int bag_n
    int disc_n
    int stock[NC]
    int upg_left[NUPGC]
    int aq_left[8]
    int tok_at[MAXRES]
    int tok_dealt
    # the pending decision's context
    int ptile
    int psrc
    int prot
    int pcell
    int wnext
    int wlast
    int chain
    int paid
    int coin_used
    int sell_rows
    int btype
    int bmode
    int bslot
    int sub_left
    int sub_min
    int opt
    int opt_arg
    int seq
    int dlast
    uint8_t bag[MAXTT]
    uint8_t disc[MAXTT]
    Player pl[NPL]

from engine.core cimport Game, State


cdef class PantikapaionGame(Game):
    cdef Tables T
    cdef readonly object data


cdef class PantikapaionState(State):
    cdef SData* d                 # malloc'ed in __cinit__, freed in __dealloc__
    cdef const Tables* T
