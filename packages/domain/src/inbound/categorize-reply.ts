import type { ReplyCategory } from "@outreach/core";
import { foldedSubject, isOutOfOfficeSubject } from "./auto-reply.js";
import { foldText } from "./inbound-facts.js";
import { isUnsubscribeRequest, ownLines } from "./unsubscribe-request.js";

/** Only the head of what the person wrote is read: the point of a reply is made early, and matching stays bounded. */
const OWN_TEXT_LIMIT = 2000;

/** The alternatives as whole words of folded text; "n't" may start one inside a word ("isn't a fit"). */
const words = (...alternatives: string[]) => new RegExp(`(?:^|(?<![a-z0-9])|(?<=[a-z])(?=n't))(?:${alternatives.join("|")})(?![a-z0-9])`);

/** Someone away: en, de, fr, es, pt, it, nl, folded (lower case, no accents). Sentences about being away, not the word "vacation" alone. */
const AWAY = words(
  "out of (?:the )?office",
  "(?:i am|i'm|im|i will be|i'll be) (?:currently |now )?(?:away|out|travell?ing|on (?:annual |parental |maternity |paternity |sick |medical |business |study )?(?:leave|vacation|holidays?|a business trip)|off (?:work|sick))",
  "away from (?:the |my )?(?:office|desk|email)",
  "(?:limited|no) access to (?:my )?e-?mail",
  "(?:will|shall) (?:be back|return|respond (?:to your (?:e-?mail|message) )?(?:when|on my return|upon my return))",
  "back in the office",
  "(?:currently|presently) (?:on (?:\\S+ )?(?:leave|vacation|holidays?)|away|out of (?:the )?office|travell?ing)",
  "disfrutando de (?:mis |unas )?vacaciones",
  "out sick",
  "(?:office|offices) (?:is |are |will be )?closed",
  "(?:we are|we're|we will be|we'll be) closed",
  "nicht im buro",
  "(?:bin|ist|sind|befinde mich) (?:\\S+ ){0,4}(?:abwesend|im urlaub|in elternzeit|auf dienstreise|nicht erreichbar|krank(?:geschrieben)?|ausser haus)",
  "abwesenheit",
  "wieder (?:im buro|erreichbar|zuruck|da)",
  "zuruck (?:am|ab)",
  "(?:je suis|suis|serai) (?:\\S+ ){0,3}(?:absente?|en conges?|en vacances|en deplacement|hors du bureau|en conge|en formation|en seminaire|en arret(?: maladie| de travail)?)",
  "de retour (?:le|a partir|au bureau|lundi|mardi|mercredi|jeudi|vendredi)",
  "absente? du bureau",
  "en (?:conges?|vacances|deplacement) (?:jusqu|du|cette semaine|a partir)",
  "fuera de (?:la )?oficina",
  "(?:estoy|estare|me encuentro) (?:\\S+ ){0,3}(?:de vacaciones|ausente|fuera|de viaje|de baja)",
  "estare de vuelta",
  "(?:regresare|volvere|vuelvo|regreso) (?:el|a la oficina|a partir)",
  "fora do escritorio",
  "(?:estou|estarei|me encontro|encontro-me) (?:\\S+ ){0,3}(?:de ferias|em ferias|ausente|fora|em viagem|viajando|de licenca|em licenca|afastad[oa])",
  "estarei de volta",
  "(?:volto|retorno|regresso) (?:ao escritorio |ao trabalho )?(?:no dia|dia|em|a partir|na)",
  "fuori (?:ufficio|sede|dall'ufficio)",
  "(?:sono|saro) (?:\\S+ ){0,3}(?:in ferie|assente|fuori|in vacanza|in congedo|in trasferta)",
  "rientrero",
  "(?:rientro|torno|ritorno) (?:in ufficio )?(?:il|lunedi|martedi|mercoledi|giovedi|venerdi|dal)",
  "(?:ben|is) (?:\\S+ ){0,3}(?:afwezig|met vakantie|op vakantie|niet op kantoor|niet aanwezig|met \\w*verlof|vrij)",
  "weer (?:aanwezig|op kantoor|bereikbaar|terug)",
  "(?:ben|is) (?:\\S+ ){0,3}terug op",
);

/** Asking to get no more mail, beyond the whole-line requests isUnsubscribeRequest knows. */
const UNSUBSCRIBE = words(
  "(?:remove|delete|take) (?:me|us|my (?:e-?mail|address|details|name|contact details)|this (?:e-?mail|address)|[^ @]+@[^ @]+)(?: \\S+){0,3} (?:from|off)",
  "(?:remove|delete|unsubscribe|take off) (?:me|us)(?![a-z])",
  "unsubscribe (?:me|us|this (?:e-?mail|address))",
  "(?:delete|erase|remove) (?:all )?(?:of )?my (?:data|personal data|details|personal details|information|contact details)",
  "(?:stop|quit|cease) (?:e-?mai?l\\w*|mailing|contacting|messaging|writing to|spamming|sending (?:me|us)|sending (?:these|this|those|your))",
  "(?:do not|don't|dont|never|please don't|please do not) (?:e-?mail|contact|write to|message|send me|send us|reach out to) (?:me|us|this address|any more|anymore|again)?",
  "(?:do not|don't|dont) want to (?:receive|get|hear)",
  "no (?:more|further) (?:e-?mails|emails|mails|messages|contact)",
  "opt (?:me )?out",
  "(?:like|want|wish|ask|asking) to be (?:removed|unsubscribed|taken off)",
  "(?:don't|do not|dont) want to be (?:contacted|e-?mailed)",
  "stop (?:reaching out|following up|writing)",
  "take me off",
  "off your (?:mailing )?list",
  // de
  "keine (?:e-?mails?|mails?|nachrichten|werbung|weiteren (?:e-?mails|mails|nachrichten)) mehr",
  "(?:nehmen|streichen|entfernen|loschen) sie (?:mich|meine (?:e-?mail-?adresse|adresse|daten))",
  "(?:bitte )?(?:aus|von) (?:ihrem|ihrer|dem|der) (?:verteiler|liste|mailingliste|e-?mail-?liste|newsletter) (?:nehmen|entfernen|streichen|austragen|loschen)",
  "(?:mich|meine adresse) (?:\\S+ ){0,4}(?:austragen|abmelden|entfernen|loschen|streichen)",
  "nicht mehr (?:kontaktieren|anschreiben|schreiben)",
  "nicht (?:weiter|mehr|langer) (?:angeschrieben|kontaktiert|angemailt|angerufen|belastigt)",
  "(?:kontaktieren|schreiben|mailen|anschreiben) sie (?:mich|mir) (?:bitte )?nicht mehr",
  "(?:horen|hort) sie (?:bitte )?(?:damit )?auf",
  "(?:von|aus) (?:ihrer|ihrem|der|dem) (?:liste|verteiler|datenbank|mailingliste|e-?mail-?liste) (?:entfernt|gestrichen|geloscht|ausgetragen)",
  "tragen sie (?:mich|meine \\S+) (?:\\S+ ){0,4}aus",
  "austragen",
  "widerspreche (?:\\S+ ){0,4}(?:nutzung|verwendung|verarbeitung|werbung)",
  "(?:mochte|will) (?:\\S+ ){0,3}keine",
  // fr
  "desinscri(?:vez|re|ption|bir)(?:-moi)?",
  "desabonn(?:ez|er)",
  "(?:retir|supprim|enlev|ray)(?:ez|er)(?:-moi| moi| mon adresse| mon e-?mail| mes coordonnees| mes donnees)",
  "me (?:retirer|supprimer|desinscrire|desabonner|rayer|enlever)",
  "m'(?:enlever|oter)",
  "ne plus me (?:contacter|solliciter|ecrire|envoyer)",
  "ne plus m'(?:envoyer|ecrire|contacter|adresser)",
  "arretez de (?:m'|me )(?:envoyer|ecrire|contacter|spammer|solliciter)",
  "cesser (?:tout envoi|tout contact|de m'|vos envois)",
  "ne (?:plus )?m'(?:envoyez|ecrivez|contactez) plus",
  "ne (?:souhaite|veux) plus (?:recevoir|etre contacte)",
  "(?:plus de|aucun) (?:messages?|e-?mails?|mails?|courriels?|sollicitations?)",
  // es
  "(?:no|ya no) (?:me )?(?:envie[ns]?|mande[ns]?|escriba[ns]?|contacte[ns]?) (?:mas|nunca)",
  "no (?:me )?(?:envie[ns]?|mande[ns]?) (?:\\S+ ){0,2}(?:correos|mensajes|e-?mails)",
  "(?:no|ya no) (?:quiero|deseo) (?:seguir )?recibir",
  "(?:borr|elimin|quit|sac|saqu)(?:e|en|ar|ad)(?:me|nos)",
  "(?:borr|elimin|quit|sac)\\w* (?:mi (?:correo|direccion|email|e-mail|contacto)|mis datos)",
  "dej(?:en|e|a|ad) de (?:escribirme|enviarme|contactarme|mandarme|escribirnos)",
  "no (?:enviarme|mandarme|escribirme|contactarme)",
  "no mas (?:e-?mails|correos|mensajes)",
  "desuscrib\\w*",
  "me quite[ns]? de",
  "que me sigan (?:escribiendo|enviando|mandando|contactando)",
  "no (?:quiero|deseo) (?:ser contactad[oa]s?|que me contacten)",
  "baja (?:por favor|gracias)",
  "darme de baja",
  "de baja",
  // pt
  "nao (?:quero|desejo) (?:mais )?receber",
  "(?:remov|exclu|tir)(?:a|am|e|em|er|ir)(?:-me| me| meu (?:e-?mail|endereco|contato))",
  "nao (?:me )?(?:envie[m]?|mande[m]?|contate[m]?)",
  "nao me (?:contatar|contactar|enviar|mandar|escrever)",
  "me (?:remova|removam|exclua|excluam|tire|tirem|descadastre|descadastrem)",
  "exclu\\w* (?:os )?(?:meus dados|meu contato|meu e-?mail|meu endereco)",
  "retir(?:e|em|ar) (?:o )?meu",
  "remocao d[oe] meu",
  "cancelar (?:a )?(?:minha )?(?:inscricao|subscricao)",
  "deix(?:em|e) de me (?:enviar|mandar|contatar|contactar)",
  "nao receber mais",
  "nao (?:quero|desejo) (?:mais )?ser contatad[oa]s?",
  "descadastr(?:ar|e|em)",
  "parem? de (?:me )?(?:enviar|mandar|contatar|contactar)",
  // it
  "non (?:voglio|desidero) (?:piu )?ricevere",
  "(?:cancellat|rimuovet|togliet|eliminat)e?(?:mi| il mio (?:indirizzo|contatto|nominativo))",
  "disiscrive(?:te)?(?:mi)?",
  "(?:rimuovere|cancellare|eliminare|togliere) (?:il mio|la mia|i miei|le mie)",
  "(?:togliermi|rimuovermi|cancellarmi|eliminarmi)",
  "non (?:contattatemi|scrivetemi|inviatemi|mandatemi) piu",
  "non (?:contattarmi|scrivermi|inviarmi|mandarmi)",
  "basta (?:email|e-mail|mail|messaggi)",
  "non (?:voglio|desidero) (?:piu )?essere contattat[oaie]",
  "non (?:mi )?(?:scrivete|contattate|inviate|mandate) piu",
  "smettete di (?:scrivermi|contattarmi|inviarmi|mandarmi)",
  // nl
  "haal (?:mij|me|ons) (?:\\S+ ){0,2}(?:van|uit) (?:de|uw|jullie|je) (?:lijst|mailinglijst|bestand|database|verzendlijst)",
  "(?:verwijder|schrap) (?:mij|me|ons|mijn (?:e-?mailadres|adres|gegevens))",
  "(?:mijn (?:e-?mailadres|adres|gegevens)|mij|me) (?:\\S+ ){0,4}(?:verwijderen|schrappen)",
  "(?:uit|van) (?:uw|jullie|de|je) (?:\\S+ )?(?:lijst|mailinglijst|bestand|adressenbestand|database|verzendlijst) (?:halen|verwijderen|schrappen)",
  "stop (?:met|maar met) (?:mailen|e-?mailen|sturen)",
  "niet meer gemaild",
  "niet (?:meer|langer) (?:benaderd|gemaild|gecontacteerd)",
  "uitschrijven",
  "(?:mij|me|ons) uit te schrijven",
  "(?:mij|me|ons) af te melden",
  "afmelden",
  "geen (?:verdere )?(?:e-?mails|mails|berichten|mailtjes) meer",
  "niet meer (?:mailen|e-?mailen|benaderen|contacteren)",
  "wil (?:\\S+ ){0,2}geen",
);

/** Not the one to ask: the wrong person, gone, or pointing elsewhere. */
const WRONG_PERSON = words(
  "(?:not|n't) the (?:right|correct|best|appropriate|relevant) (?:person|contact|one|person to (?:talk|speak) to)",
  "wrong (?:person|contact|guy|address|department|team)",
  "(?:no longer|not longer|not) (?:with|at|working (?:at|for|with)|employed (?:at|by)|part of) (?:the company|this company|the team|us|[a-z]+ (?:inc|gmbh|ltd|llc|bv|sa|srl))",
  "no longer (?:works|work|working|employed|responsible|in charge|handles|handling|handle|with)",
  "(?:has|have) (?:left|since left|moved on from) (?:the|our|this) (?:company|organi[sz]ation|firm|business|team)",
  "(?:left|moved on from) the company",
  "(?:i|we) (?:don't|do not|dont) (?:handle|deal with|manage|look after|make decisions|decide on|own|cover)",
  "(?:not|n't) (?:my|in my) (?:area|department|responsibility|remit|field|role|job|decision)",
  "(?:not|n't) responsible for",
  "(?:you should|you'll want to|you will want to|you want to|you may want to|better to|you'd better|best to|please) (?:talk|speak|reach out|get in touch|write) (?:to|with)",
  "(?:please|kindly) (?:contact|email|e-mail|reach out to|write to) (?:my colleague|our|[a-z]+ (?:instead|directly))",
  "(?:the (?:right|correct|best) person|the person responsible|who (?:handles|is responsible for|looks after)) (?:is|would be|for (?:this|that))",
  "(?:forwarded|passed) (?:this|your (?:e-?mail|message|note)) (?:on )?to",
  "(?:contact|reach) (?:\\S+ ){0,2}instead",
  "(?:not|n't) the (?:person|one) (?:who|that) (?:handles|deals|is responsible|manages|looks after|makes|decides|buys)",
  "passed away",
  "(?:not|n't) the (?:decision[- ]?maker|buyer|budget holder|owner)",
  "the person you (?:want|need|should (?:talk|speak) to)",
  "try (?:our|my|reaching|contacting|emailing|asking|[a-z0-9._-]+@)",
  "(?:might|may|could|would) be (?:more )?relevant (?:for|to) (?:our|my)",
  "make (?:\\S+ )?decisions",
  "(?:has|have|he|she) (?:retired|passed away)",
  "(?:left|departed) (?:us|the company|the firm|the business|the team)",
  "(?:role|position|responsibilities|accounts?|territory) (?:is|are|has been|have been) (?:now )?(?:covered|handled|held|taken over|managed) by",
  "(?:not|n't) involved (?:in|with)",
  // not "try it": folded, IT the department and "it" are one word
  "(?:try|ask) (?:hr|finance|legal|sales|marketing|procurement|purchasing|operations|ops|(?:our |the )?it (?:team|department|dept|folks|guys))(?![a-z])",
  "(?:isn't|is not|not|no longer) (?:really )?(?:mine|my (?:area|thing|call|decision))(?: any ?more)?",
  "i (?:have )?(?:moved|switched|changed) (?:over )?(?:to (?:a |another |the )?(?:different |new )?(?:role|team|department|position|job)|roles|teams|jobs)",
  "(?:verantwortlich|zustandig),? nicht ich",
  "direct (?:future |your )?(?:correspondence|e-?mails?|inquiries|questions) to",
  // de
  "nicht (?:der|die) (?:richtige|passende|zustandige) (?:ansprechpartner(?:in)?|person|kontakt)",
  "nicht (?:mehr )?(?:zustandig|bei uns|im unternehmen)",
  "nicht zustandig",
  "(?:hat|haben) (?:das unternehmen|die firma|uns) verlassen",
  "wenden sie sich (?:bitte )?an",
  // fr
  "(?:pas|plus) (?:la bonne personne|le bon interlocuteur|le bon contact|en charge|responsable)",
  "(?:a|ont) quitte (?:l'entreprise|la societe|la societe|le groupe)",
  "ne fait plus partie",
  "ne travaille plus",
  "(?:adressez-vous|contactez plutot|veuillez contacter)",
  // es
  "no soy la persona (?:adecuada|indicada|correcta)",
  "(?:ya no trabaja|dejo la empresa|no es mi area)",
  "(?:le recomiendo|deberia) (?:contactar|hablar|escribir)",
  // pt / it / nl
  "nao sou a pessoa (?:certa|indicada|correta)",
  "nao trabalha mais",
  "non sono la persona (?:giusta|corretta|indicata)",
  "non lavora piu",
  "niet de (?:juiste|aangewezen) persoon",
  "werkt (?:hier )?niet meer",
);

/** Saying no; these phrases also hide the interest words inside them ("not interested") from INTERESTED. */
const NOT_INTERESTED = words(
  "(?:not|n't|nt|never|no longer|not really|not currently|not at all) (?:\\S+ ){0,2}interest(?:ed|ing)",
  "no interest",
  // with what is not wanted, so that it is not read as interest
  "(?:not|n't|never) (?:really |particularly )?(?:like|love|want|need) to(?: \\S+){0,3}",
  "let'?s not",
  "(?:no|without) (?:need|budget)",
  "no,? (?:thanks?|thank you|thx|ty)",
  "(?:not|n't) for (?:us|me|now|the foreseeable)",
  "(?:stick|stay|staying|sticking) with (?:what|our|the|my)",
  "(?:we are|we're|were|i am|i'm|im) (?:all )?(?:set|good|covered|happy with)",
  "all set",
  "(?:already|currently) (?:have|use|using|work with|working with|got|signed|partnered|invested|in a contract|locked)",
  "have (?:a |an )?(?:existing|current|solution|provider|vendor|tool|partner|contract)",
  "(?:not|n't) (?:a (?:good )?fit|the right fit|a priority|something we need|looking|in the market|in a position|the right time|a good time)",
  "(?:not|n't) (?:now|right now|at (?:this|the) (?:time|moment|stage|point))",
  "(?:maybe|perhaps|try (?:again|me|us|back)|circle back|reach out|check back|contact us) (?:\\S+ ){0,3}(?:next (?:year|quarter|month)|in (?:q[1-4]|a few months|six months|\\d+ months|the new year|the spring|the fall|the autumn|\\d{4})|later (?:this|next) year)",
  "(?:i'll|we'll|i will|we will|going to|gonna) pass",
  "(?:pass|decline) (?:on (?:this|it)|for now|this time)",
  "^(?:pass|nope|no)[.! ]*$",
  "committed to (?:our|a|the) (?:current |existing )?(?:vendor|provider|solution|partner|supplier)",
  "(?:just|recently) (?:signed|renewed|chose|went with|bought|purchased|implemented|committed)",
  "(?:no|not) (?:appetite|bandwidth|capacity)",
  "(?:won't|will not|wont) be (?:moving forward|pursuing|needing|proceeding)",
  "(?:decided|chose|chosen|choose) (?:to go |to stay |to stick )?(?:with|against|another|a different|not)",
  "(?:doesn't|does not|don't|do not|dont) (?:need|see a need|have a need|fit|make sense|see (?:a|the) fit)",
  "(?:unfortunately|sadly|regrettably),? (?:we|i) (?:can't|cannot|won't|will not|have to|must|are not|aren't|don't|do not)",
  "please (?:close|remove) (?:the file|this)",
  // de
  "kein (?:interesse|bedarf)",
  "passt (?:\\S+ ){0,2}nicht",
  "nicht interessiert",
  "(?:haben|nutzen|benotigen|brauchen) (?:\\S+ ){0,3}(?:bereits|schon) (?:eine|einen|ein)",
  "brauchen (?:wir )?(?:das |so etwas )?nicht",
  "kein(?:en)? bedarf",
  "nein,? danke",
  // fr
  "pas interesse",
  "(?:pas|aucun) (?:d'|de )?(?:interet|besoin|budget)",
  "non merci",
  "pas (?:une |notre )?priorite",
  "pas le (?:bon )?moment",
  "avons deja",
  // es
  "no (?:me |nos )?interesa",
  "no (?:estamos|estoy) interesad[oa]s?",
  "no,? gracias",
  "no es para (?:nosotros|mi)",
  "no es (?:el|buen) momento",
  "nao e (?:o|um bom) momento",
  "ya (?:tenemos|contamos con|usamos|trabajamos con)",
  // pt
  "nao (?:temos|tenho) interesse",
  "nao (?:me |nos )?interessa",
  "nao,? obrigad[oa]",
  "ja (?:temos|usamos|utilizamos|trabalhamos com)",
  // it
  "non (?:siamo|sono) interessat[ioe]",
  "non (?:ci |mi )?interessa",
  "no,? grazie",
  "abbiamo gia",
  // nl
  "niet geinteresseerd",
  "geen (?:interesse|behoefte)",
  "nee,? (?:dank(?:je|u)|bedankt)",
  "hebben (?:al|reeds) (?:een|ons|onze)",
);

/** Interest that depends on something the reply names: left to a person ("I'd be interested if it supported SSO"). */
const CONDITIONAL = words("(?:would|i'd|we'd|might|could) be (?:\\S+ )?interested (?:if|provided|as long as|only if|assuming|once|when)", "(?:only|possibly) if you");

/** Wanting to go on: a meeting, more information, a price, a yes. */
const INTERESTED = words(
  "(?:i'm|i am|im|we're|we are|were|i'd be|i would be|we'd be|we would be|very|quite|definitely|really|also|might be|may be|could be) (?:\\S+ ){0,2}interested",
  "interested in (?:learning|hearing|seeing|a (?:call|demo|chat|meeting|trial)|talking|more|knowing|finding out|your)",
  "(?:sounds|looks) (?:good|great|interesting|promising|intriguing|relevant|like a plan)",
  "(?:let's|lets|let us|happy to|glad to|keen to|open to|(?:i|we)(?:'d| would) (?:love|like) to|(?:i|we) want to|can we|could we|shall we|should we) (?:\\S+ ){0,2}(?:talk|chat|speak|connect|meet|call|discuss|jump on|hop on|set up|set something up|schedule|book|find a time|try|see|learn|hear)",
  "(?:schedule|book|set up|arrange|find|grab) (?:a |some |us a |an? )?(?:\\S+ )?(?:call|time|meeting|demo|chat|slot|session|intro)",
  "(?:give|show) (?:me|us) a (?:quick |short )?(?:demo|walkthrough|tour)",
  "(?:send|share) (?:\\S+ ){0,2}(?:pricing|prices|deck|case stud(?:y|ies)|proposal|quote)",
  "(?:send|share|forward) (?:me|us|over) (?:\\S+ ){0,3}(?:info|information|details|deck|pricing|prices|price list|case stud(?:y|ies)|brochure|proposal|quote|more|link|overview|one-?pager)",
  "(?:what(?:'s| is| are| does| would)|how much (?:is|does|would)) (?:\\S+ ){0,3}(?:pricing|price|cost|costs|rate|rates|plans|fee|fees)",
  "how (?:much|does (?:it|this|that) work|would (?:it|this|that) work|do you (?:handle|integrate|compare|work))",
  "(?:is|are|does|do|can|could) (?:it|this|you|your (?:tool|product|platform|service|team)) (?:\\S+ ){0,3}(?:integrate|support|work with|handle|offer|connect)",
  "(?:how|what) about (?:monday|tuesday|wednesday|thursday|friday|next week|tomorrow|this week|\\d)",
  "(?:monday|tuesday|wednesday|thursday|friday|tomorrow|next week)(?: \\S+){0,3} (?:works|would work|is good|is fine|suits|could work|at \\d)",
  "free (?:on |for a call |for a quick call |to talk )?(?:monday|tuesday|wednesday|thursday|friday|tomorrow|next week|this week|later today)",
  "(?:here's|here is) my (?:calendar|calendly|booking)",
  "calendly",
  "^(?:yes|yeah|yep|sure|absolutely|definitely|of course|gerne|ja gerne|oui|sim|certo|ja graag)(?![a-z]| not)",
  "would love (?:a|to|some|more)",
  "(?:would|i'd|we'd) (?:\\S+ ){0,2}(?:like|love) to (?:see|try|learn|talk|chat|get|hear|book|schedule|discuss)",
  "(?:see|get|have|book|schedule|arrange|do) (?:a |the )?(?:quick |short )?demo",
  "(?:do|does) (?:you|it) (?:have|offer) (?:a |an )?(?:free )?(?:trial|demo|pilot|pricing|discount)",
  "(?:what|how long) (?:does|would|will) (?:\\S+ ){0,2}(?:implementation|onboarding|setup|set-up|rollout|integration|it) (?:typically |usually |normally )?(?:take|look like|involve|cost)",
  "(?:send|suggest|share|propose) (?:me |us )?(?:a few |some |two or three |a couple of )?(?:times|slots|dates)",
  "(?:send|drop|forward) (?:me |us )?(?:an? )?(?:calendar |meeting |teams |zoom )?invit(?:e|ation)",
  "(?:might|may|could) be a (?:good |great )?fit",
  "(?:rufen sie mich|ruf mich) (?:\\S+ ){0,3}an",
  "en savoir plus",
  "m'envoyer (?:\\S+ ){0,3}(?:proposition|devis|tarifs?|informations|documentation|offre)",
  "(?:quand|quel jour) (?:etes-vous|etes vous|seriez-vous|pouvez-vous|est-ce que vous etes) disponible",
  "tell me more",
  "(?:could|can|shall) we do (?:\\S+ ){0,2}(?:\\d+ ?min|a call|a quick|monday|tuesday|wednesday|thursday|friday|next week)",
  "can (?:i|we) (?:try|test|trial|pilot) it",
  "suena (?:bien|interesante|genial)",
  "cuanto (?:cuesta|vale|costaria)",
  "interesserebbe",
  "saperne di piu",
  "wat kost",
  "(?:klinkt|lijkt|erg|heel) interessant",
  "(?:more|further) (?:info|information|details) (?:please|would be)",
  "please send (?:me|us|over|more)",
  "keen to",
  "count (?:me|us) in",
  "(?:yes|sure|absolutely|definitely),? (?:please|let's|lets|i'd|we'd|that|happy|sounds|go ahead|interested)",
  "worth a (?:chat|call|conversation|look)",
  "(?:give|call) me a (?:call|ring)",
  // de
  "(?:bin|sind|waren|ware) (?:\\S+ ){0,2}interessiert",
  "(?:klingt|hort sich) (?:gut|interessant|spannend)",
  "(?:termin|telefonat|gesprach|call|demo) (?:\\S+ ){0,3}(?:vereinbaren|ausmachen|machen|einplanen|buchen)",
  "(?:schicken|senden) sie (?:mir|uns) (?:\\S+ ){0,3}(?:infos|informationen|unterlagen|preise|angebot)",
  "(?:was kostet|wie viel kostet|preise)",
  // fr
  "(?:suis|sommes|serais|serions) (?:\\S+ ){0,2}interesse",
  "(?:ca|cela) (?:m'|nous )?interesse",
  "(?:pouvons|pourrions|peut-on|on peut) (?:\\S+ ){0,2}(?:echanger|parler|discuter|planifier|caler)",
  "(?:envoyez|envoyer)(?:-moi| moi| nous)? (?:\\S+ ){0,3}(?:informations|tarifs|documentation|plaquette|details)",
  // es / pt / it / nl
  "(?:me|nos) interesa",
  "(?:estoy|estamos|estaria|estariamos) interesad[oa]s?",
  "(?:podemos|podriamos) (?:\\S+ ){0,2}(?:hablar|agendar|tener una llamada|reunirnos)",
  "(?:tenho|temos) interesse",
  "(?:podemos|poderiamos) (?:\\S+ ){0,2}(?:conversar|falar|agendar|marcar)",
  "(?:sono|siamo|sarei|saremmo) (?:\\S+ ){0,2}interessat[ioe]",
  "(?:mi|ci) interessa",
  "(?:possiamo|potremmo) (?:\\S+ ){0,2}(?:sentirci|parlare|fissare|organizzare)",
  "(?:ben|zijn) (?:\\S+ ){0,2}geinteresseerd",
  "(?:klinkt|lijkt) (?:goed|interessant)",
  "(?:kunnen|zullen) we (?:\\S+ ){0,2}(?:bellen|afspreken|een afspraak|praten|een call)",
);

/** The folded head of what the person wrote: their own lines before any quoted message or signature. */
function ownText(text: string): string {
  const lines = ownLines(text.slice(0, OWN_TEXT_LIMIT * 4));
  return foldText(lines.join("\n").replace(/[\u2018\u2019\u02bc`´]/g, "'")).slice(0, OWN_TEXT_LIMIT);
}

function withoutReplyPrefix(subject: string): string {
  return subject.replace(/^(?:\s*(?:\[[^\]]{0,40}\]|(?:re|aw|sv|vs|antw|rif|r|fw|fwd|wg|tr|enc|rv)\s*(?:\[\d+\])?\s*:))+\s*/i, "");
}

/** Out-of-office subjects that only say "automatic reply": they tell nothing about being away, the text must. */
const GENERIC_AUTO_SUBJECT =
  /^(?:automatic reply|automated (?:reply|response)|auto[- ]?reply|auto[- ]?response|autoresponder|auto|automatische antwort|automatische ruckantwort|reponse automatique|respuesta automatica|risposta automatica|automatisch (?:antwoord|bericht)|resposta automatica)(?=$|[\s:\-(,.!/|])/;

function isAway(subject: string, own: string): boolean {
  const bare = withoutReplyPrefix(subject);
  return (isOutOfOfficeSubject(bare) && !GENERIC_AUTO_SUBJECT.test(foldedSubject(bare))) || AWAY.test(own);
}

/**
 * What a reply says, by rules on its subject and the person's own text (the
 * head of it, before any quoted message or signature, folded). Decisive first:
 * - an automatic message is out_of_office when its subject or text says the
 *   sender is away, otherwise other (a ticket receipt, an address change);
 * - an unsubscribe request wins over everything else a person wrote ("not
 *   interested, take me off your list" is unsubscribe_request);
 * - a person's out-of-office text is out_of_office unless it also says yes or
 *   no ("I'm on holiday next week, but let's talk on the 14th" is interested);
 *   a colleague named in it for urgent matters is not a wrong_person;
 * - wrong_person wins over not_interested ("not for me, talk to Anna": the
 *   referral is the more useful fact); with an interest signal too, other;
 * - not_interested, with the phrases that negate interest taken out before
 *   interest is looked for ("not interested" is never interested); "not right
 *   now, try again in Q3" is not_interested; no together with a yes is other;
 * - interest that hangs on a condition ("I'd be interested if...") is other;
 * - interested on a clear signal (a meeting, information, a price, a yes);
 * - other when unsure, mixed, or empty.
 * The subject is read for out-of-office and unsubscribe only: a reply keeps
 * our own subject, whose words are not the person's.
 */
export function categorizeReply(input: { subject: string; text: string; autoReply: boolean }): ReplyCategory {
  const own = ownText(input.text);
  if (input.autoReply) return isAway(input.subject, own) ? "out_of_office" : "other";
  if (isUnsubscribeRequest({ subject: input.subject, text: input.text.slice(0, OWN_TEXT_LIMIT * 4) }) || UNSUBSCRIBE.test(own)) return "unsubscribe_request";
  const away = isAway(input.subject, own);
  const declined = NOT_INTERESTED.test(own);
  const rest = own.replace(new RegExp(NOT_INTERESTED.source, "g"), " ; ");
  const conditional = CONDITIONAL.test(rest);
  const interested = !conditional && INTERESTED.test(rest);
  if (away && !interested && !declined) return "out_of_office";
  if (WRONG_PERSON.test(own)) return interested ? "other" : "wrong_person";
  if (declined) return interested ? "other" : "not_interested";
  if (conditional) return "other";
  if (interested) return "interested";
  return "other";
}
